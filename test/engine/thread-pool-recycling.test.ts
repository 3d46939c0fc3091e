/**
 * A long batch keeps its memory flat because the pool replaces each engine thread between documents, after a
 * number of PDFs drawn with WebAssembly (another document, a PDF in mode fast or one mode auto drew nothing of among
 * them, counting a fiftieth, one whose pictures are kept a tenth) or past a heap threshold, and a thread lets go of its PDF renderer's memory
 * after each document; a document that needs more than a thread's heap limit fails alone, with its code and its
 * file's name, while the others convert.
 */
import { describe, expect, it, vi } from 'vitest';
import { ParseApiError } from '../../src/backend/errors.js';
import { validateParseOptions } from '../../src/contract/validation.js';
import type { ParseOptions } from '../../src/contract/options.js';
import { LocalParseEngine } from '../../src/engine/local-engine.js';
import { EngineThreadPool } from '../../src/engine/thread-pool.js';
import { readCorpusBytes } from '../helpers/corpus.js';
import { memorySource } from '../helpers/memory-source.js';

function options(input: unknown = {}): ParseOptions {
  const result = validateParseOptions(input);
  if (!result.ok) throw new Error('bad options');
  return result.options;
}

const smallCsv = (index: number) => Buffer.from(`name,value\nrow${index},${index * 7}\n`);

/** A CSV whose table takes several hundred MB of heap to build: far past a 64 MB limit. */
function heapBreakingCsv(): Buffer {
  const row = 'alpha,beta,gamma,delta,epsilon,zeta,eta,theta\n';
  return Buffer.from(`h1,h2,h3,h4,h5,h6,h7,h8\n${row.repeat(600_000)}`);
}

describe('engine threads recycled between documents', () => {
  it('starts a fresh thread after every K PDFs drawn with WebAssembly, and the fresh threads convert correctly', async () => {
    const pool = new EngineThreadPool({ size: 1, recycleAfterDocuments: 2 });
    // A scan: mode auto draws its page with PDFium's WebAssembly to OCR it.
    const scan = readCorpusBytes('pdf/ocr_test.pdf');
    try {
      for (let index = 0; index < 5; index++) {
        const data = await pool.run(scan.slice(), `f${index}.pdf`, options());
        expect(data.markdown).toMatch(/Docling bundles PDF document conversion to JSON and Markdown/);
      }
      // Five PDFs, two to a thread: the first thread and one successor after each second PDF.
      expect(pool.threadsStarted).toBe(3);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('starts a worn thread\'s successor once the worn one has ended, never beside it', async () => {
    const pool = new EngineThreadPool({ size: 1, recycleAfterDocuments: 1 });
    const scan = readCorpusBytes('pdf/ocr_test.pdf');
    try {
      for (let index = 0; index < 3; index++) {
        await pool.run(scan.slice(), `f${index}.pdf`, options());
        // The worn thread is ending; its successor is not started yet.
        expect(pool.threadsAlive).toBe(1);
        // A thread's exit can take seconds on a loaded machine: the successor waits for it, however long.
        await vi.waitFor(() => expect(pool.threadsStarted).toBe(index + 2), { timeout: 30_000 });
        expect(pool.threadsAlive).toBe(1);
      }
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('counts a PDF in mode auto that drew nothing with WebAssembly (text pages, no picture to OCR) as a fiftieth', async () => {
    const pool = new EngineThreadPool({ size: 1, recycleAfterDocuments: 2 });
    const pdf = readCorpusBytes('pdf/multi-column-2p.pdf');
    try {
      for (let index = 0; index < 5; index++) {
        const data = await pool.run(pdf.slice(), `f${index}.pdf`, options());
        expect(data.markdown?.length ?? 0).toBeGreaterThan(500);
      }
      // Counted as PDFs to OCR, these five would have started two more threads.
      expect(pool.threadsStarted).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('counts a document other than a PDF as a fiftieth of one: small files do not pay a thread start each few', async () => {
    const pool = new EngineThreadPool({ size: 1, recycleAfterDocuments: 2 });
    try {
      for (let index = 0; index < 120; index++) {
        const data = await pool.run(smallCsv(index), `f${index}.csv`, options());
        expect(data.markdown).toContain(`| row${index} | ${index * 7} |`);
      }
      // 120 CSVs weigh 2.4 PDFs: one recycle, after the hundredth.
      expect(pool.threadsStarted).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('counts a PDF in mode fast as a fiftieth: LiteParse alone leaves nothing behind, so fast batches keep their threads', async () => {
    const pool = new EngineThreadPool({ size: 1, recycleAfterDocuments: 2 });
    const pdf = readCorpusBytes('pdf/multi-column-2p.pdf');
    try {
      for (let index = 0; index < 5; index++) {
        const data = await pool.run(pdf.slice(), `f${index}.pdf`, options({ parsers: [{ type: 'pdf', mode: 'fast' }] }));
        expect(data.markdown?.length ?? 0).toBeGreaterThan(500);
      }
      expect(pool.threadsStarted).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('counts a PDF in mode fast whose pictures are kept as a tenth: PDFium reading pictures leaves its memory level', async () => {
    const pool = new EngineThreadPool({ size: 1, recycleAfterDocuments: 2 });
    const pdf = readCorpusBytes('pdf/multi-column-2p.pdf');
    try {
      for (let index = 0; index < 5; index++) {
        const data = await pool.run(pdf.slice(), `f${index}.pdf`, options({ parsers: [{ type: 'pdf', mode: 'fast' }], removeBase64Images: false }));
        expect(data.markdown?.length ?? 0).toBeGreaterThan(500);
      }
      // Five such PDFs weigh half of one.
      expect(pool.threadsStarted).toBe(1);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('replaces a thread whose heap passed the threshold once its document is done', async () => {
    // A threshold below any engine thread's heap: every document ends its thread's life.
    const pool = new EngineThreadPool({ size: 1, recycleHeapMb: 1 });
    try {
      for (let index = 0; index < 3; index++) expect((await pool.run(smallCsv(index), `f${index}.csv`, options())).markdown).toContain(`row${index}`);
      // The last thread's successor starts once it has ended.
      await vi.waitFor(() => expect(pool.threadsStarted).toBe(4));
    } finally {
      await pool.close();
    }
  });

  it("keeps a thread whose renderer drew a scanned page: the renderer's memory is let go of with the document", async () => {
    // Drawn in bands, a 300-DPI scan grows PDFium's WebAssembly memory to about 44 MB. The thread lets go of it once
    // the document is done, so it reports none kept, under even a threshold below what the scan needed.
    const pool = new EngineThreadPool({ size: 1, recycleWasmMb: 32 });
    try {
      const scan = await pool.run(readCorpusBytes('pdf/ocr_test.pdf'), 'scan.pdf', options());
      expect(scan.markdown).toMatch(/Docling bundles PDF document conversion to JSON and Markdown/);
      // The next scan draws with PDFium anew, on the same thread.
      const again = await pool.run(readCorpusBytes('pdf/ocr_test.pdf'), 'again.pdf', options());
      expect(again.markdown).toBe(scan.markdown);
      const next = await pool.run(readCorpusBytes('pdf/multi-column-2p.pdf'), 'next.pdf', options());
      expect(next.markdown?.length ?? 0).toBeGreaterThan(500);
      expect(pool.threadsStarted).toBe(1);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('answers a document posted ahead to a thread behind a PDF read with WebAssembly after that PDF, so the thread is neither counted idle nor recycled under it', async () => {
    // A PDF in mode auto is posted once PDFium's compiled module is at hand, a step later than a CSV. Had the CSV
    // posted ahead to the same thread overtaken it, the pool would count the thread idle with the PDF still in it.
    // A recycle at the CSV's end would then kill the PDF, and start one thread too many: in a long batch, a pool of
    // two kept three.
    const pool = new EngineThreadPool({ size: 1, recycleAfterDocuments: 1 });
    // A scan, which mode auto draws with PDFium's WebAssembly to OCR it.
    const pdf = readCorpusBytes('pdf/ocr_test.pdf');
    try {
      // A started thread, so that the CSV below is posted ahead to it while it holds the PDF.
      expect((await pool.run(smallCsv(0), 'warm.csv', options())).markdown).toContain('row0');
      const answered: string[] = [];
      const noted = <T>(name: string, run: Promise<T>) => run.finally(() => answered.push(name));
      const [first, second] = await Promise.all([noted('pdf', pool.run(pdf.slice(), 'a.pdf', options())), noted('csv', pool.run(smallCsv(1), 'b.csv', options()))]);
      expect(first.markdown).toMatch(/Docling bundles PDF document conversion to JSON and Markdown/);
      expect(second.markdown).toContain('| row1 | 7 |');
      expect(answered).toEqual(['pdf', 'csv']);
      // Worn by the PDF, the thread is replaced once, after the CSV posted ahead to it (its successor starts once it has ended).
      await vi.waitFor(() => expect(pool.threadsStarted).toBe(2));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(pool.threadsStarted).toBe(2);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('fails the document that breaks the heap limit alone, naming it, and converts the others', async () => {
    const engine = new LocalParseEngine({ size: 1, maxHeapMb: 64 });
    try {
      const before = await engine.parse(memorySource('before.csv', smallCsv(1)), {});
      const huge = await engine.parse(memorySource('huge.csv', heapBreakingCsv()), {}).catch((caught: unknown) => caught);
      const after = await engine.parse(memorySource('after.csv', smallCsv(2)), {});
      expect(huge).toBeInstanceOf(ParseApiError);
      expect((huge as ParseApiError).apiCode).toBe('DOCUMENT_TOO_COMPLEX');
      expect((huge as ParseApiError).message).toContain('huge.csv');
      expect((huge as ParseApiError).message).toContain('64 MB memory limit');
      expect((huge as ParseApiError).retryable).toBe(false);
      expect(before.data.markdown).toContain('| row1 | 7 |');
      expect(after.data.markdown).toContain('| row2 | 14 |');
    } finally {
      await engine.close();
    }
  });
});
