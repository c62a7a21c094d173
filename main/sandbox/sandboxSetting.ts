import { DEFAULT_SANDBOX_SETTING, SandboxSettingSchema, type SandboxSetting } from '../../common/sandbox';

/** KEEL_SANDBOX wins over the settings file; an unknown value in either is an error, not a silent default. */
export function resolveSandboxSetting(fromFile: SandboxSetting | undefined, env: NodeJS.ProcessEnv = process.env): SandboxSetting {
  const raw = env.KEEL_SANDBOX?.trim();
  if (raw !== undefined && raw !== '') {
    const parsed = SandboxSettingSchema.safeParse(raw.toLowerCase());
    if (!parsed.success) throw new Error(`KEEL_SANDBOX must be auto, off or required, not "${raw}".`);
    return parsed.data;
  }
  return fromFile ?? DEFAULT_SANDBOX_SETTING;
}
