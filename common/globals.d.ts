/** Set at build time from package.json. */
declare const __KEEL_VERSION__: string;
/** True only in `electron-vite build --mode test`: the window then carries the browser tests' hooks. */
declare const __KEEL_TEST_HOOKS__: boolean;
