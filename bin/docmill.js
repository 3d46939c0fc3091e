#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm run build`, run by `prepare` on npm ci).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('docmill: dist/ is missing; run `npm run build` (npm ci does it for you).\n');
  process.exit(2);
}
const { main } = await import(entry.href);
const code = await main(process.argv);
// Exit once stdout has drained: idle keep-alive sockets and library timers must not hold a finished command open.
process.stdout.write('', () => process.exit(code));
