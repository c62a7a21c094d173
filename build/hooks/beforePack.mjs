// electron-builder `beforePack` hook: selects the Electron fuses for this build.
//
// electron-builder.yml's `electronFuses` holds the production fuses (the Electron security
// checklist's). electron-builder flips them after `afterPack`, right before signing. A test build,
// asked for with KEEL_TEST_BUILD=1, differs in one fuse only: EnableNodeCliInspectArguments stays
// on, because Playwright's `_electron.launch` starts the app with `--inspect=0` and drives its main
// process through that inspector. A test build is for CI and must never be shipped.

/** The one fuse a test build changes, and its value there. */
export const TEST_BUILD_OVERRIDES = Object.freeze({ enableNodeCliInspectArguments: true });

/** True for KEEL_TEST_BUILD=1 or true; false when unset, empty, 0 or false; anything else is an error. */
export function isTestBuild(env = process.env) {
  const value = (env.KEEL_TEST_BUILD ?? '').trim().toLowerCase();
  if (value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new Error(`KEEL_TEST_BUILD must be 1 (a test build) or unset (production), not ${JSON.stringify(env.KEEL_TEST_BUILD)}`);
}

/** The fuses for this build: production's, or production's with the test build's override. */
export function fusesForBuild(productionFuses, env = process.env) {
  if (productionFuses == null || typeof productionFuses !== 'object') {
    throw new Error('electron-builder.yml has no electronFuses: the production fuses must be set there');
  }
  return isTestBuild(env) ? { ...productionFuses, ...TEST_BUILD_OVERRIDES } : { ...productionFuses };
}

export async function beforePack(context) {
  const config = context.packager.config;
  const fuses = fusesForBuild(config.electronFuses);
  if (isTestBuild()) {
    console.log('  • beforePack: KEEL_TEST_BUILD=1: a TEST build, with EnableNodeCliInspectArguments on. Do not ship it.');
  }
  // electron-builder reads config.electronFuses when it flips the fuses, after afterPack.
  config.electronFuses = fuses;
  return fuses;
}

export default beforePack;
