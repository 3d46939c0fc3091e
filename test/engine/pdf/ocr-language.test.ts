/**
 * OCR languages chosen by the caller (`ocrLanguages`, `--ocr-lang`): they reach the engine thread and win over
 * the language the PDF declares; a language asked for without installed data fails the document, or the engine's
 * start, with the package to install; a PDF that needs no OCR is not held back by it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParseApiError } from '../../../src/backend/errors.js';
import { localFileSource } from '../../../src/backend/upload-source.js';
import type { ParseOptionsInput } from '../../../src/contract/options.js';
import type { ParseData } from '../../../src/contract/response.js';
import { EngineError } from '../../../src/engine/engine-error.js';
import { LocalParseEngine } from '../../../src/engine/local-engine.js';
import { writePdf, type PageSpec } from './fixtures/pdf-writer.js';
import { scannedPdf } from './scanned-pdfs.js';

const LETTER: PageSpec = {
  runs: [
    { x: 72, y: 700, text: 'Invoice number 4471', size: 24 },
    { x: 72, y: 660, text: 'Payment is due within thirty days.', size: 16 },
  ],
};
/** OCR is slow on a shared machine: several seconds a page. */
const OCR_TEST_MS = 120_000;
const AUTO: ParseOptionsInput = { parsers: [{ type: 'pdf', mode: 'auto' }] };

let dir: string;
let germanScan: string;
let textPdf: string;
const engines: LocalParseEngine[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docmill-ocr-language-'));
  // Declared German: with no choice of the caller's, OCR would read it in German (not installed here: English + a warning).
  germanScan = join(dir, 'scan.pdf');
  await writeFile(germanScan, await scannedPdf(LETTER, { lang: 'de-DE' }));
  textPdf = join(dir, 'text.pdf');
  await writeFile(textPdf, writePdf({ pages: [LETTER] }));
});

afterAll(async () => {
  await Promise.all(engines.map((engine) => engine.close()));
  await rm(dir, { recursive: true, force: true });
});

function engine(options: ConstructorParameters<typeof LocalParseEngine>[0] = {}): LocalParseEngine {
  const created = new LocalParseEngine({ size: 1, ...options });
  engines.push(created);
  return created;
}

async function parse(on: LocalParseEngine, path: string, ocrLanguages?: string[]): Promise<ParseData> {
  const result = await on.parse(await localFileSource(path), AUTO, ocrLanguages ? { ocrLanguages } : {});
  return result.data;
}

async function parseFailure(on: LocalParseEngine, path: string, ocrLanguages: string[]): Promise<ParseApiError> {
  const error: unknown = await parse(on, path, ocrLanguages).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ParseApiError);
  return error as ParseApiError;
}

describe('OCR languages of the caller', () => {
  it('are what the engine thread reads in: they win over the declared language, and a missing one fails the scan', async () => {
    const local = engine();
    // The document's own choice: German, not installed, so English with a warning naming the package.
    const declared = await parse(local, germanScan);
    expect(declared.markdown).toMatch(/Invoice number 4471/);
    expect(declared.warning).toMatch(/document's language \(deu\) has no OCR data here/);
    // The caller's English: read as asked, nothing to warn about.
    const english = await parse(local, germanScan, ['eng']);
    expect(english.markdown).toMatch(/Invoice number 4471[\s\S]*Payment is due within thirty days\./);
    expect(english.warning ?? null).toBeNull();
    // Asked for German and English, German not installed: the document fails with the package to install,
    // instead of a page quietly read in English only.
    const failure = await parseFailure(local, germanScan, ['deu', 'eng']);
    expect(failure.status).toBe(400);
    expect(failure.apiCode).toBe('OCR_LANGUAGE_MISSING');
    expect(failure.apiMessage).toContain('scan.pdf: no OCR data installed for the requested language deu: npm install @tesseract.js-data/deu');
    // Several missing: every one named, with every package.
    const both = await parseFailure(local, germanScan, ['fra', 'deu']);
    expect(both.apiMessage).toContain('languages fra, deu: npm install @tesseract.js-data/fra @tesseract.js-data/deu');
  }, OCR_TEST_MS);

  it('do not hold back a PDF that needs no OCR', async () => {
    const data = await parse(engine(), textPdf, ['deu']);
    expect(data.markdown).toMatch(/Invoice number 4471/);
  }, OCR_TEST_MS);

  it('are the engine default (docmill serve --ocr-lang) when a call names none, and a call overrides them', async () => {
    const english = engine({ ocrLanguages: ['eng'] });
    const data = await parse(english, germanScan);
    expect(data.markdown).toMatch(/Payment is due within thirty days\./);
    expect(data.warning ?? null).toBeNull();
    const failure = await parseFailure(english, germanScan, ['deu']);
    expect(failure.apiCode).toBe('OCR_LANGUAGE_MISSING');
  }, OCR_TEST_MS);

  it('stop an engine whose default language has no data before it starts', () => {
    let error: unknown;
    try {
      engine({ ocrLanguages: ['eng', 'ita'] });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('ENGINE_OCR_LANGUAGE_MISSING');
    expect((error as EngineError).message).toBe('no OCR data installed for the requested language ita: npm install @tesseract.js-data/ita');
  });
});
