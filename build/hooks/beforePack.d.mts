// Types for beforePack.mjs (plain JS so that electron-builder can load it without a TypeScript loader).
/** electron-builder's `electronFuses` options (FuseOptionsV1). */
export interface FuseOptions {
  runAsNode?: boolean;
  enableCookieEncryption?: boolean;
  enableNodeOptionsEnvironmentVariable?: boolean;
  enableNodeCliInspectArguments?: boolean;
  enableEmbeddedAsarIntegrityValidation?: boolean;
  onlyLoadAppFromAsar?: boolean;
  loadBrowserProcessSpecificV8Snapshot?: boolean;
  grantFileProtocolExtraPrivileges?: boolean;
  resetAdHocDarwinSignature?: boolean;
}

type Env = Record<string, string | undefined>;

export const TEST_BUILD_OVERRIDES: Readonly<FuseOptions>;
export function isTestBuild(env?: Env): boolean;
export function fusesForBuild(productionFuses: FuseOptions | null | undefined, env?: Env): FuseOptions;
export function beforePack(context: { packager: { config: { electronFuses?: FuseOptions | null } } }): Promise<FuseOptions>;
export default beforePack;
