/**
 * A thread whose document ran out of time is not ended while a native call of it is out (LiteParse reading the
 * pages): ending it then can abort the whole process when the call answers (Node before 24.14; measured with the
 * real LiteParse: 1 process in 4 aborted over 6 documents timed out during PDFium's read of a 300-page PDF). The
 * thread here imports a stand-in for LiteParse whose read waits for the test's word, so the timeout lands inside
 * the call every time: the call must still answer inside the thread after the timeout, and only then the thread end.
 */
import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateParseOptions } from '../../src/contract/validation.js';
import type { ParseOptions } from '../../src/contract/options.js';
import { EngineTimeoutError } from '../../src/engine/engine-error.js';
import { EngineThreadPool } from '../../src/engine/thread-pool.js';
import { waitFor } from '../helpers/docmill-cli.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';
import { fixtureBytes } from './pdf/helpers.js';

function options(input: unknown): ParseOptions {
  const result = validateParseOptions(input);
  if (!result.ok) throw new Error('bad options');
  return result.options;
}

/** LiteParse's shape as docmill uses it: a read that says it was asked, waits for `release`, then answers (fails). */
function standIn(dir: string): string {
  const file = (name: string) => JSON.stringify(join(dir, name));
  return `import { existsSync, writeFileSync } from 'node:fs';
export class LiteParse {
  async parse() {
    writeFileSync(${file('asked')}, '');
    while (!existsSync(${file('release')})) await new Promise((resolve) => setTimeout(resolve, 10));
    writeFileSync(${file('answered')}, '');
    throw new Error('the stand-in reads nothing');
  }
}
`;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

let dir: string;
let pool: EngineThreadPool;

beforeAll(async () => {
  dir = await makeTempDir();
  await writeFile(join(dir, 'liteparse-stand-in.mjs'), standIn(dir));
  pool = new EngineThreadPool({ size: 1, liteParseModule: pathToFileURL(join(dir, 'liteparse-stand-in.mjs')).href });
});

afterAll(async () => {
  await writeFile(join(dir, 'release'), '').catch(() => undefined);
  await pool.close();
  await removeTempDir(dir);
});

describe('EngineThreadPool and native calls', () => {
  it('ends a timed-out thread only once its native call has answered', async () => {
    // Alone: its time starts once its fresh thread is up, so the 3 s are the converter's and the read's.
    const error = await pool.run(fixtureBytes('acme-report-3p.pdf'), 'acme.pdf', options({ timeout: 3000 }), undefined, { alone: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngineTimeoutError);
    expect((error as Error).message).toContain('while reading the pages with PDFium');
    expect(await exists(join(dir, 'asked'))).toBe(true);

    // The thread is out of the pool but still running: the call it waits on answers in it once released.
    await writeFile(join(dir, 'release'), '');
    await waitFor('the native call answered inside the timed-out thread', () => exists(join(dir, 'answered')), { timeoutMs: 10_000, intervalMs: 20 });

    // The pool goes on with a fresh thread.
    const csv = await pool.run(Buffer.from('a,b\n1,2\n'), 'small.csv', options({}));
    expect(csv.markdown).toContain('| 1 | 2 |');
  }, 30_000);
});
