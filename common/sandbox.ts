import { z } from 'zod';

/** auto: confine commands where a sandbox works; off: never; required: refuse commands without one. */
export const SANDBOX_SETTINGS = ['auto', 'off', 'required'] as const;
export const SandboxSettingSchema = z.enum(SANDBOX_SETTINGS);
export type SandboxSetting = z.infer<typeof SandboxSettingSchema>;
export const DEFAULT_SANDBOX_SETTING: SandboxSetting = 'auto';

/**
 * What the start-up check found, for the status bar and the approval gate. `unavailable` carries
 * why (the check's own error); `unsandboxed` is a platform with no sandbox at all (Windows).
 */
export const SandboxStatusSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('checking') }),
  /**
   * `via`: what confines the commands (bubblewrap on Linux, Seatbelt's sandbox-exec on macOS).
   * `gaps`: what the check found it cannot restrict here (e.g. unix sockets without the seccomp helper).
   */
  z.object({ state: z.literal('on'), via: z.enum(['bwrap', 'seatbelt']).optional(), gaps: z.array(z.string().max(500)).max(10).optional() }),
  z.object({ state: z.literal('off') }),
  z.object({ state: z.literal('unavailable'), why: z.string().max(2000), required: z.boolean() }),
  z.object({ state: z.literal('unsandboxed') }),
]);
export type SandboxStatus = z.infer<typeof SandboxStatusSchema>;
