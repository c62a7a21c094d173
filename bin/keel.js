#!/usr/bin/env node
// The CLI is built into out/ by `npm run build`; this file only finds and runs it.
import { existsSync } from 'node:fs';

const cli = new URL('../out/main/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error('keel: Keel is not built yet. Run "npm run build" in the Keel folder first.');
  process.exit(1);
}
const { main } = await import(cli.href);
process.exitCode = await main(process.argv.slice(2));
