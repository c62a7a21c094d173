/**
 * A UTF-8 locale for a process whose environment names none (a Dock start has no LANG): without
 * one, CJK text and emoji come out as `?` or escapes in many programs. macOS has no C.UTF-8;
 * glibc (2.35+, and Debian-based before) and musl do, where en_US.UTF-8 is often not generated.
 * Undefined when one is set, and on Windows, which has no LANG.
 */
export function fallbackLocale(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform === 'win32' || env.LC_ALL || env.LC_CTYPE || env.LANG) return undefined;
  return platform === 'darwin' ? 'en_US.UTF-8' : 'C.UTF-8';
}
