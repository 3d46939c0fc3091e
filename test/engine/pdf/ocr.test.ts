/**
 * OCR of PDFs: scanned pages are read under modes auto and ocr, a good text layer is kept under auto, mode fast
 * never OCRs, a text layer of unmapped glyphs is replaced by OCR, nothing touches the network or the disk, the
 * threads of a pool share one tesseract worker, and a long scan is stopped with its thread by the time limit.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseOptionsSchema } from '../../../src/contract/options.js';
import { type EngineError, EngineTimeoutError } from '../../../src/engine/engine-error.js';
import { terminateOcrWorkers } from '../../../src/engine/pdf/ocr/tesseract.js';
import { EngineThreadPool } from '../../../src/engine/thread-pool.js';
import { writePdf, type PageSpec } from './fixtures/pdf-writer.js';
import { allBlocks, convertBytes, convertWithPdfjs, mainMarkdown } from './helpers.js';
import { privateUseTextPdf, scannedPdf } from './scanned-pdfs.js';

const INVOICE: PageSpec = {
  runs: [
    { x: 72, y: 700, text: 'Invoice number 4471', size: 24 },
    { x: 72, y: 660, text: 'Payment is due within thirty days.', size: 16 },
  ],
};

afterAll(() => terminateOcrWorkers());

/** This process's OS threads (Linux): an engine thread and its tesseract worker are one each. */
function osThreads(): number | undefined {
  if (!existsSync('/proc/self/status')) return undefined;
  return Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
}

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
  return condition();
}

describe('PDF OCR', () => {
  it('reads a scanned page under modes auto and ocr, as full_page blocks with their place and confidence', async () => {
    const scan = await scannedPdf(INVOICE);
    for (const mode of ['auto', 'ocr'] as const) {
      const doc = await convertBytes(scan, { mode });
      expect(doc.warnings).toBeUndefined();
      expect(mainMarkdown(doc)).toMatch(/Invoice number 4471[\s\S]*Payment is due within thirty days\./);
      const blocks = allBlocks(doc);
      expect(blocks.every((block) => block.source === 'full_page')).toBe(true);
      const payment = blocks.find((block) => block.markdown.includes('thirty days'))!;
      // Drawn at x 72 pt, baseline 660 pt on a 612 × 792 page: about 0.12 from the left, 0.16 from the top.
      expect(payment.bbox![0]).toBeCloseTo(72 / 612, 1);
      expect(payment.bbox![3]).toBeCloseTo((792 - 660) / 792, 1);
      expect(payment.confidence!.ocr).toBeGreaterThan(0.8);
      expect(payment.confidence!.ocr).toBeLessThanOrEqual(1);
    }
  });

  it('reads in the language the PDF declares when its data is installed, and says so when it is not', async () => {
    // English data ships with docmill: a scan declared en-GB is read without a word about language.
    const english = await convertBytes(await scannedPdf(INVOICE, { lang: 'en-GB' }), { mode: 'auto' });
    expect(english.warnings).toBeUndefined();
    expect(english.metadata.language).toBe('en-GB');
    // German data is not installed here: the scan is still read (in English), and the warning names the package.
    const german = await convertBytes(await scannedPdf(INVOICE, { lang: 'de-DE' }), { mode: 'auto' });
    expect(mainMarkdown(german)).toMatch(/Invoice number 4471/);
    expect(german.warnings).toEqual([expect.stringMatching(/English: the document's language \(deu\) has no OCR data here \(npm install @tesseract\.js-data\/deu\)/)]);
  });

  it('keeps OCR_REQUIRED for a scan in mode fast', async () => {
    const error = (await convertBytes(await scannedPdf(INVOICE), { mode: 'fast' }).catch((caught: unknown) => caught)) as EngineError;
    expect(error.apiCode).toBe('OCR_REQUIRED');
    expect(error.message).toMatch(/no text layer.*mode "fast" does not OCR/);
  });

  it('does not OCR a page with a good text layer under auto, and does under ocr', async () => {
    const pdf = writePdf({ pages: [INVOICE] });
    const auto = await convertBytes(pdf, { mode: 'auto' });
    expect(allBlocks(auto).map((block) => [block.source, block.confidence?.ocr])).toEqual([
      ['native_text', null],
      ['native_text', null],
    ]);
    const ocr = await convertBytes(pdf, { mode: 'ocr' });
    expect(allBlocks(ocr).every((block) => block.source === 'full_page')).toBe(true);
    expect(mainMarkdown(ocr)).toContain('Payment is due within thirty days.');
  });

  it('OCRs a page whose glyphs map to private-use code points under auto, not under fast (pdfjs path)', async () => {
    // pdfjs follows the broken ToUnicode map; PDFium (LiteParse) reads the standard font's encoding instead.
    const pdf = privateUseTextPdf(['Quarterly invoice totals', 'Shipping address verified']);
    const fast = await convertWithPdfjs(pdf, { mode: 'fast' });
    expect(mainMarkdown(fast)).not.toContain('Quarterly');
    const auto = await convertWithPdfjs(pdf, { mode: 'auto' });
    expect(mainMarkdown(auto)).toBe('Quarterly invoice totals\n\nShipping address verified');
    // Its garbled text is all prose: read again block by block, the text layer's layout kept (garbled-blocks.ts).
    expect(allBlocks(auto).every((block) => block.source === 'layout_ocr')).toBe(true);
  });

  it('works with no network and writes nothing to the working folder', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'docmill-ocr-'));
    try {
      const here = (name: string) => fileURLToPath(new URL(`./ocr/${name}`, import.meta.url));
      const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
      const node = [process.execPath, '--import', tsx, '--require', here('no-network-preload.cjs'), here('offline-child.ts')];
      const pdf = fileURLToPath(new URL('pdf/ocr_test.pdf', new URL('../../fixtures/corpus/', import.meta.url)));
      // Without a network namespace too when the machine allows one (root): then no socket can reach anything.
      const isolated = spawnSync('unshare', ['-n', 'true']).status === 0;
      const command = isolated ? ['unshare', '-n', ...node, pdf] : [...node, pdf];
      const child = spawnSync(command[0]!, command.slice(1), { cwd, encoding: 'utf8', timeout: 120_000 });
      expect(child.stderr).not.toMatch(/network access attempted/);
      expect(child.status).toBe(0);
      expect(JSON.parse(child.stdout).join('\n')).toMatch(/Docling bundles PDF document conversion to JSON and Markdown/);
      expect(readdirSync(cwd)).toEqual([]);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('reads the scans of two engine threads with one tesseract worker between them', async () => {
    const scan = await scannedPdf(INVOICE);
    const pool = new EngineThreadPool({ size: 2 });
    try {
      const csv = (index: number) => Buffer.from(`name,value\nrow${index},${index}\n`);
      const options = parseOptionsSchema.parse({ timeout: 100_000, parsers: [{ type: 'pdf', mode: 'ocr' }] });
      // Both engine threads up, and one scan read: whatever reading a scan starts is running.
      await Promise.all([0, 1].map((index) => pool.run(csv(index), `f${index}.csv`, parseOptionsSchema.parse({}))));
      expect((await pool.run(scan.slice(), 'first.pdf', options)).markdown).toMatch(/Invoice number 4471/);
      const threadsAfterOne = osThreads();
      const read = await Promise.all([0, 1].map((index) => pool.run(scan.slice(), `scan${index}.pdf`, options)));
      expect(pool.threadsStarted).toBe(2);
      for (const data of read) expect(data.markdown).toMatch(/Invoice number 4471[\s\S]*Payment is due within thirty days\./);
      // The thread that had read no scan yet started no tesseract worker of its own (an OS thread).
      if (threadsAfterOne !== undefined) expect(osThreads()).toBe(threadsAfterOne);
    } finally {
      await pool.close();
    }
    // Two engine threads and a tesseract worker start: seconds each on a loaded machine.
  }, 120_000);

  it('stops a long scan at the time limit: its thread is killed and nothing keeps running', async () => {
    const scan = await scannedPdf(INVOICE, { pages: 300, dpi: 100 });
    const threadsBefore = osThreads();
    const pool = new EngineThreadPool({ size: 1 });
    try {
      const options = parseOptionsSchema.parse({ timeout: 4000, parsers: [{ type: 'pdf', mode: 'ocr' }] });
      const error = await pool.run(scan, 'scan.pdf', options).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(EngineTimeoutError);
      expect(pool.load).toBe(0);
      if (threadsBefore !== undefined) {
        // The engine thread and the tesseract worker it started are gone: the process is back to its own threads.
        expect(await until(() => osThreads()! <= threadsBefore, 3000)).toBe(true);
      } else {
        // Without /proc the threads cannot be counted: a tesseract worker left running would keep a core busy.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const before = process.cpuUsage();
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const used = process.cpuUsage(before);
        expect((used.user + used.system) / 1000).toBeLessThan(500);
      }
    } finally {
      await pool.close();
    }
  });
});
