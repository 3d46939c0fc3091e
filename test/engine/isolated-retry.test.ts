/**
 * The local engine's one retry: a document that overruns its time is tried once more, alone on a fresh thread
 * (the pool's `alone` run), then fails for good with PARSE_TIMEOUT naming the stage it was in; everything else that
 * fails a document is final at once. The workbook here is real and large: SheetJS takes far longer than the timeout
 * to read it, on any thread.
 */
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParseApiError } from '../../src/backend/errors.js';
import type { AttemptOutcome } from '../../src/backend/parse-backend.js';
import type { UploadSource } from '../../src/backend/upload-source.js';
import { parseOptionsSchema } from '../../src/contract/options.js';
import { EngineCrashError, EngineError, EngineTimeoutError } from '../../src/engine/engine-error.js';
import { confirmedFailure, needsIsolatedRetry, SuspectDocuments } from '../../src/engine/isolated-retry.js';
import { LocalParseEngine } from '../../src/engine/local-engine.js';
import { EngineThreadPool } from '../../src/engine/thread-pool.js';

const options = parseOptionsSchema.parse({});

function csv(rows: number, tag: string): Buffer {
  return Buffer.from(`name,value\n${`${tag},1\n`.repeat(rows)}`);
}

function memorySource(fileName: string, bytes: Uint8Array): UploadSource {
  return { fileName, size: bytes.byteLength, open: async function* () { yield bytes; } };
}

const NS = 'http://schemas.openxmlformats.org/';

function sheetXml(sheet: number, rows: number): string {
  const parts = [`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${NS}spreadsheetml/2006/main"><sheetData>`];
  for (let row = 1; row <= rows; row += 1) {
    parts.push(`<row><c t="inlineStr"><is><t>name ${sheet}.${row}</t></is></c><c><v>${row}</v></c><c><v>${row * 2.5}</v></c></row>`);
  }
  parts.push('</sheetData></worksheet>');
  return parts.join('');
}

/**
 * A workbook of two sheets of 900,000 cells each (under the engine's per-sheet limit), its XML written directly
 * (SheetJS's own writer takes seconds more). On a quiet core here the engine checks its package in 1.5 s and SheetJS
 * then reads it for 9 to 10 s: a timeout of 4 s runs out while it is read on a machine up to twice as fast, or one
 * loaded enough to make the check twice as slow.
 */
function bigWorkbook(): Uint8Array {
  const sheets = [1, 2];
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="${NS}package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        sheets.map((n) => `<Override PartName="/xl/worksheets/sheet${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('') +
        '</Types>',
    ),
    '_rels/.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${NS}package/2006/relationships">` +
        `<Relationship Id="rId1" Type="${NS}officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/workbook.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${NS}spreadsheetml/2006/main" xmlns:r="${NS}officeDocument/2006/relationships"><sheets>` +
        sheets.map((n) => `<sheet name="Big ${n}" sheetId="${n}" r:id="rId${n}"/>`).join('') +
        '</sheets></workbook>',
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${NS}package/2006/relationships">` +
        sheets.map((n) => `<Relationship Id="rId${n}" Type="${NS}officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${n}.xml"/>`).join('') +
        '</Relationships>',
    ),
  };
  for (const n of sheets) files[`xl/worksheets/sheet${n}.xml`] = strToU8(sheetXml(n, 300_000));
  return zipSync(files, { level: 1 });
}

describe('EngineThreadPool: a document run alone', () => {
  const pool = new EngineThreadPool({ size: 2 });
  afterAll(() => pool.close());

  it('waits for the documents running, runs with none beside it, and holds back those queued after it', async () => {
    const settled: string[] = [];
    const track = (name: string, parse: Promise<unknown>) => parse.then(() => settled.push(name));
    // Shared, a small document and then a long one would run side by side, and the small one finish first.
    await Promise.all([
      track('first', pool.run(csv(10, 'a'), 'first.csv', options)),
      track('alone', pool.run(csv(200_000, 'b'), 'alone.csv', options, undefined, { alone: true })),
      track('after', pool.run(csv(10, 'c'), 'after.csv', options)),
    ]);
    expect(settled).toEqual(['first', 'alone', 'after']);
  }, 60_000);
});

describe('LocalParseEngine: a timeout', () => {
  const engine = new LocalParseEngine({ size: 2 });
  let workbook: Uint8Array;
  beforeAll(async () => {
    workbook = bigWorkbook();
    // A warm thread: the first try's time then goes to reading the workbook, not to starting the thread.
    await engine.parse(memorySource('warm.csv', csv(10, 'w')), {});
  });
  afterAll(() => engine.close());

  it('is tried once more alone, then fails for good: PARSE_TIMEOUT naming the stage, two attempts, not retryable', async () => {
    const outcomes: AttemptOutcome[] = [];
    let started = 0;
    const failure = await engine
      .parse(memorySource('big.xlsx', workbook), { timeout: 4000 }, {
        beforeAttempt: async () => {
          started += 1;
        },
        afterAttempt: (outcome) => outcomes.push(outcome),
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ParseApiError);
    expect(failure).toMatchObject({
      status: 422,
      apiCode: 'PARSE_TIMEOUT',
      retryable: false,
      attempts: 2,
    });
    // The stage that was running when the time ran out (reading the workbook, unless a loaded machine was still
    // checking its package): the exact wording for a given stage is pinned by the pure-function test below.
    expect((failure as ParseApiError).apiMessage).toMatch(
      /^big\.xlsx: parsing took longer than the request timeout of 4000 ms while (?:reading the workbook|checking the workbook package), twice: the second time alone on a fresh thread$/,
    );
    // Each try is an attempt its caller is told of: the first a retryable 408, the second the final answer.
    expect(started).toBe(2);
    expect(outcomes.map((outcome) => (outcome.ok ? 200 : (outcome.error as ParseApiError).status))).toEqual([408, 422]);
  }, 120_000);

  it('a document error is final at once: one attempt', async () => {
    let started = 0;
    const failure = await engine
      .parse(memorySource('empty.pdf', new Uint8Array()), {}, { beforeAttempt: async () => void (started += 1) })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 400, apiCode: 'EMPTY_DOCUMENT', retryable: false, attempts: 1 });
    expect(started).toBe(1);
  });
});

describe('the retry rule, as pure functions', () => {
  it('retries a timeout and a dead thread, nothing else; the second failure is final and says where', () => {
    const timeout = new EngineTimeoutError(30_000, 'reading the workbook');
    const died = new EngineCrashError('the parser thread exited (code 1)', { threadDied: true, stage: 'reading slide 3' });
    const shutDown = new EngineCrashError('the engine is shut down');
    expect([timeout, died, shutDown, new EngineError('CORRUPT_DOCUMENT', 'x')].map(needsIsolatedRetry)).toEqual([true, true, false, false]);
    expect(confirmedFailure(timeout)).toMatchObject({
      apiCode: 'PARSE_TIMEOUT',
      status: 422,
      message: 'parsing took longer than the request timeout of 30000 ms while reading the workbook, twice: the second time alone on a fresh thread',
    });
    expect(confirmedFailure(died)).toMatchObject({
      apiCode: 'CONVERSION_FAILED',
      status: 422,
      message: 'the parser thread died on this document while reading slide 3, twice: the second time alone on a fresh thread',
      detail: 'the parser thread exited (code 1)',
    });
  });

  it('remembers a suspect document by its bytes and options (not its time left), for a while', () => {
    let now = 0;
    const suspects = new SuspectDocuments(() => now);
    const key = SuspectDocuments.key(Buffer.from('a'), parseOptionsSchema.parse({ timeout: 30_000 }));
    expect(SuspectDocuments.key(Buffer.from('a'), parseOptionsSchema.parse({ timeout: 12_345 }))).toBe(key);
    expect(SuspectDocuments.key(Buffer.from('a'), parseOptionsSchema.parse({ onlyMainContent: false }))).not.toBe(key);
    expect(suspects.has(key)).toBe(false);
    suspects.remember(key);
    expect(suspects.has(key)).toBe(true);
    now += 16 * 60_000;
    expect(suspects.has(key)).toBe(false);
  });
});
