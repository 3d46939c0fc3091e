#!/usr/bin/env node
// The `prepare` script: builds dist/ unless it is already newer than every file it is built from.
//
// `npm ci` runs it once; `npx docmill` in a checkout runs it again, when npm links the checkout into its own cache on
// the first call, which made that first call (the README's quick start) wait some 8 s for a build it did not need.
// `npm run build` always builds.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import process from 'node:process';

const root = process.cwd();
/** What the build reads (tsconfig.build.json: src and workers, the two configs, the dependencies' types). */
const INPUTS = ['src', 'workers', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
/** A file the build always writes: its time is the last build's. */
const OUTPUT = join('dist', 'src', 'cli', 'main.js');

/**
 * The newest modification time of the files at `path` (the file itself, or every file below the folder). A folder's
 * own time is not counted: it changes whenever an entry comes or goes, and the test suite's lint probe makes and
 * removes a folder under src/, which made the next `npx docmill` rebuild for nothing. A source deleted leaves nothing
 * a build would change either (tsc leaves its old output in place); a source added or edited is a newer file.
 */
function newestTime(path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestTime(join(path, entry)));
  return newest;
}

function builtAt() {
  try {
    return statSync(join(root, OUTPUT)).mtimeMs;
  } catch {
    return 0;
  }
}

const built = builtAt();
const stale = built === 0 || INPUTS.some((input) => newestTime(join(root, input)) > built);
if (stale) {
  // `npm run build`'s command, run with this node (no shell, so the same on every platform).
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
}
