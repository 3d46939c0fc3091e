/**
 * The library examples docs/library.md shows are run as a user would run them: `node examples/library/<name>.mjs`,
 * importing `docmill` through the package's own `exports` (the built dist/).
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SHARED_REDIS_URL } from '../helpers/docmill-cli.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLES = join(REPO, 'examples');
// Each example starts Node, the engine threads and (for two) an embedded Redis: under a loaded CI machine that takes
// longer than the suite's default 30 s, so a test waits as long as the child is allowed to run.
const EXAMPLE_TIMEOUT_MS = 120_000;
let out: string;

beforeEach(async () => {
  out = await makeTempDir();
});
afterEach(async () => {
  await removeTempDir(out);
});

function example(name: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return run(process.execPath, [join(EXAMPLES, 'library', name), ...args], {
    cwd: REPO,
    env: { ...process.env, REDIS_URL: '', ...env },
    timeout: EXAMPLE_TIMEOUT_MS,
  });
}

describe('the library examples in docs/library.md', () => {
  it('parse-file.mjs prints the pages and first line of the sample report', async () => {
    const { stdout } = await example('parse-file.mjs', [join(EXAMPLES, 'report.pdf')]);
    expect(stdout).toMatch(/^2 page\(s\), \d+ characters of Markdown/);
  }, EXAMPLE_TIMEOUT_MS + 5_000);

  it('run.mjs converts the examples folder with events and a summary', async () => {
    const { stdout } = await example('run.mjs', [EXAMPLES, join(out, 'md')]);
    expect(stdout).toMatch(/^converted +report\.pdf$/m);
    expect(stdout).toMatch(/^converted +budget\.xlsx$/m);
    expect(stdout).toMatch(/5 converted, 0 skipped, 0 failed/);
  }, EXAMPLE_TIMEOUT_MS + 5_000);

  it('worker.mjs queues on a shared Redis, converts, and stops when done', async () => {
    const { stdout } = await example('worker.mjs', [EXAMPLES, join(out, `md-${randomUUID()}`)], { REDIS_URL: SHARED_REDIS_URL });
    expect(stdout).toMatch(/queued 5 documents/);
    expect(stdout).toMatch(/worker stopped after 5 conversions/);
  }, EXAMPLE_TIMEOUT_MS + 5_000);
});
