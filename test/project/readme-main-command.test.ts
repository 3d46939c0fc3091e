/**
 * The README's main command, run as a new user runs it from a fresh clone: `docmill run ./examples --out ./out` in
 * the repository, with no key, no API and no REDIS_URL (docmill starts a private redis-server). What it prints is
 * what the README shows, and every example document has its Markdown.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { docmillEnv, runDocmill } from '../helpers/docmill-cli.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
let home: string;

beforeEach(async () => {
  home = await makeTempDir();
});
afterEach(async () => {
  await removeTempDir(home);
});

/** The summary block the README's quick start shows under its main command. */
async function readmeSummary(): Promise<string[]> {
  const readme = await readFile(join(REPO, 'README.md'), 'utf8');
  const block = /```\n(docmill: [^\n]+\n[^`]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('README.md shows no docmill summary block');
  return block.trimEnd().split('\n');
}

describe("README.md's main command", () => {
  it('converts the examples with the local engine and prints the summary the README shows', async () => {
    const out = join(home, 'out');
    const result = await runDocmill(['run', './examples', '--out', out], { ...docmillEnv({ home }), DOCMILL_LOG_LEVEL: 'warn' }, 120_000, REPO);
    expect(result.code, result.stderr).toBe(0);
    for (const line of await readmeSummary()) expect(result.stdout + result.stderr).toContain(line);
    for (const name of ['report.pdf', 'notes.html', 'inventory.csv', 'minutes.docx', 'budget.xlsx']) {
      expect((await readFile(join(out, `${name}.md`), 'utf8')).trim().length, name).toBeGreaterThan(0);
    }
  }, 150_000);
});
