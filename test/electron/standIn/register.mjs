// `node --import ./register.mjs out/main/index.js`: the built Electron main process, with the
// stand-in electron module of this folder in place of the real one (see standInHost.test.ts).
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
