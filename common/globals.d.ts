/** Set at build time from package.json. */
declare const __KEEL_VERSION__: string;
