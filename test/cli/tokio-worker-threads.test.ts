/**
 * LiteParse's native runtime (tokio) aborts the whole process when `TOKIO_WORKER_THREADS` is set to anything but a
 * positive number: an empty value left by a container's `ENV` line was enough to kill `docmill parse` with a Rust
 * panic. docmill drops such a value with one line on stderr and converts as usual; a valid value is left alone.
 * Unset, docmill runs one tokio worker for each engine thread's copy of the module, not one per core: an engine
 * thread converts one document at a time, and each further worker only held memory (counted in the running
 * `docmill serve`'s /proc/<pid>/task).
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { privateUseTextPdf } from '../engine/pdf/scanned-pdfs.js';
import { docmillEnv, killAllDocmill, runDocmill, startDocmill, stopEmbeddedRedis } from '../helpers/docmill-cli.js';
import { waitFor } from '../helpers/wait.js';

let dir: string;
let pdf: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docmill-tokio-env-'));
  pdf = join(dir, 'notice.pdf');
  await writeFile(pdf, privateUseTextPdf(['Quarterly invoice totals', 'Shipping address verified']));
});

afterEach(() => killAllDocmill());

afterAll(() => rm(dir, { recursive: true, force: true }));

async function parseWith(value: string) {
  const home = await mkdtemp(join(dir, 'home-'));
  return runDocmill(['parse', pdf, '--mode', 'fast'], docmillEnv({ home, extra: { TOKIO_WORKER_THREADS: value } }), 60_000);
}

const WARNING = /TOKIO_WORKER_THREADS is not a positive number of threads; ignored/;

describe('TOKIO_WORKER_THREADS in the environment', () => {
  it.each(['', '0', 'auto'])('set to %j: the PDF is converted by LiteParse, and one line says the value was ignored', async (value) => {
    const result = await parseWith(value);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
    // PDFium reads the standard font's own encoding where pdfjs would follow the broken map: LiteParse did read it.
    expect(result.stdout).toMatch(/Quarterly invoice totals\s+Shipping address verified/);
    expect(result.stderr.match(new RegExp(WARNING, 'g'))).toHaveLength(1);
    expect(result.stderr).toContain(JSON.stringify(value));
  }, 90_000);

  it('set empty: `run` converts the folder with its engine threads started early, and says so once', async () => {
    const home = await mkdtemp(join(dir, 'home-'));
    const src = join(home, 'src');
    const out = join(home, 'out');
    await mkdir(src);
    await writeFile(join(src, 'notice.pdf'), await readFile(pdf));
    try {
      const result = await runDocmill(['run', src, '--out', out, '--mode', 'fast'], docmillEnv({ home, extra: { TOKIO_WORKER_THREADS: '' } }), 90_000);
      expect(result.code).toBe(0);
      expect(await readFile(join(out, 'notice.pdf.md'), 'utf8')).toMatch(/Quarterly invoice totals\s+Shipping address verified/);
      expect(result.stderr.match(new RegExp(WARNING, 'g'))).toHaveLength(1);
    } finally {
      await stopEmbeddedRedis(out);
    }
  }, 120_000);

  it('set to a number of threads: converted, nothing said', async () => {
    const result = await parseWith('2');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Quarterly invoice totals\s+Shipping address verified/);
    expect(result.stderr).not.toMatch(WARNING);
  }, 90_000);

  /** How many tokio workers a `docmill serve` started with `extra` runs once it has converted one PDF. */
  async function tokioWorkersAfterOnePdf(extra: Record<string, string>): Promise<number> {
    const home = await mkdtemp(join(dir, 'home-'));
    const server = startDocmill(['serve', '--port', '0', '--max-concurrency', '1'], docmillEnv({ home, extra }));
    const url = await waitFor(`docmill serve listening:\n${server.stderr}`, () => /"url":"(http:\/\/[^"]+\/v2\/parse)"/.exec(server.stderr)?.[1]);
    const form = new FormData();
    form.append('file', new Blob([await readFile(pdf)]), 'notice.pdf');
    form.append('options', JSON.stringify({ parsers: [{ type: 'pdf', mode: 'fast' }] }));
    const answer = await fetch(url, { method: 'POST', body: form });
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(JSON.stringify(await answer.json())).toMatch(/Quarterly invoice totals/);
    const tasks = await readdir(`/proc/${server.pid}/task`);
    const names = await Promise.all(tasks.map((task) => readFile(`/proc/${server.pid}/task/${task}/comm`, 'utf8').catch(() => '')));
    return names.filter((name) => name.trim() === 'tokio-rt-worker').length;
  }

  // /proc is Linux's; on 1 core tokio's own default is one worker too, so the case says nothing there.
  it.runIf(process.platform === 'linux' && availableParallelism() > 1)('unset: one tokio worker for the engine thread that read the PDF, not one per core', async () => {
    expect(await tokioWorkersAfterOnePdf({})).toBe(1);
    expect(await tokioWorkersAfterOnePdf({ TOKIO_WORKER_THREADS: '2' })).toBe(2);
  }, 90_000);
});
