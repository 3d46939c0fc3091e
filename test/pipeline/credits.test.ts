/**
 * The credit estimate (src/pipeline/credits.ts) and the local page count it relies on (pdf-page-count.ts).
 *
 * Page counts of the fixture PDFs were read with `pdfinfo` (poppler-utils 22.12, Debian) and are hard-coded here:
 * code_and_formula.pdf 2, multi-column-2p.pdf 2, korean-text-with-tables.pdf 1, 2305.03393v1-pg9.pdf 1,
 * ocr_test.pdf 1, right_to_left_01.pdf 1, test/engine/pdf/fixtures/acme-report-3p.pdf 3. pdfinfo refuses
 * password.pdf without its password; its page tree reads `/Type/Pages … /Count 1` in plain text. pdfinfo finds no
 * trailer in TRUNCATED-layout-parser-paper-fast.pdf and calls EMPTY-zero-bytes.pdf empty: both unreadable.
 * Generated PDFs are checked against pdfjs-dist, a reader independent of the counter under test.
 * code_and_formula.pdf redefines its page tree in an incremental update (an object stream holds the old tree with
 * /Count 1, a plain object after it the new one with /Count 2): the newest definition must win.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { parseOptionsSchema, type ParseOptionsInput } from '../../src/contract/options.js';
import { billedPages, estimateCredits } from '../../src/pipeline/credits.js';
import { costOfBytes } from '../../src/pipeline/document-cost.js';
import { countPdfPages, isPdf, pageTreeCount } from '../../src/pipeline/pdf-page-count.js';
import { readCorpusBytes } from '../helpers/corpus.js';

const options = (input: ParseOptionsInput = {}) => parseOptionsSchema.parse(input);

const PDFINFO_PAGES: Record<string, number> = {
  'pdf/code_and_formula.pdf': 2,
  'pdf/multi-column-2p.pdf': 2,
  'pdf/korean-text-with-tables.pdf': 1,
  'pdf/2305.03393v1-pg9.pdf': 1,
  'pdf/ocr_test.pdf': 1,
  'pdf/right_to_left_01.pdf': 1,
  'pdf/password.pdf': 1,
};

async function generatedPdf(pages: number, useObjectStreams: boolean): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) doc.addPage().drawText(`page ${i + 1}`, { x: 50, y: 700, size: 12, font });
  return doc.save({ useObjectStreams });
}

async function pdfjsPageCount(bytes: Uint8Array): Promise<number> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await pdfjs.getDocument({ data: bytes.slice(), verbosity: 0, isEvalSupported: false }).promise;
  try {
    return document.numPages;
  } finally {
    await document.destroy();
  }
}

describe('estimateCredits: the hosted API rules, counted by hand', () => {
  const pdf = (pages: number) => ({ pdf: true, pages });
  const other = { pdf: false, pages: 1 };

  it('charges 1 per document, and a PDF 1 per page', () => {
    expect(estimateCredits(other, options())).toBe(1);
    expect(estimateCredits(pdf(1), options())).toBe(1);
    expect(estimateCredits(pdf(7), options())).toBe(7);
  });

  it('adds 4 per document for the json format', () => {
    const json = options({ formats: [{ type: 'markdown' }, { type: 'json', prompt: 'totals' }] });
    expect(estimateCredits(other, json)).toBe(1 + 4);
    expect(estimateCredits(pdf(7), json)).toBe(7 + 4);
  });

  it('adds 4 for redactPII, plus 4 per PDF page beyond the first', () => {
    expect(estimateCredits(other, options({ redactPII: true }))).toBe(1 + 4);
    expect(estimateCredits(pdf(1), options({ redactPII: true }))).toBe(1 + 4);
    // 3 pages: 3 + 4 + 2 × 4 = 15
    expect(estimateCredits(pdf(3), options({ redactPII: { mode: 'fast' } }))).toBe(15);
  });

  it('adds 1 for zero data retention', () => {
    expect(estimateCredits(other, options({ zeroDataRetention: true }))).toBe(2);
    expect(estimateCredits(pdf(2), options({ zeroDataRetention: true }))).toBe(3);
  });

  it('adds every rule together', () => {
    const all = options({ formats: [{ type: 'json' }], redactPII: true, zeroDataRetention: true });
    // 5 pages: 5 + 4 (json) + 4 + 4 × 4 (redaction) + 1 (ZDR) = 30
    expect(estimateCredits(pdf(5), all)).toBe(30);
    // not a PDF: 1 + 4 + 4 + 1 = 10
    expect(estimateCredits(other, all)).toBe(10);
  });

  it('charges json and zero data retention once per request of a PDF parsed in page ranges, pages and redaction once', () => {
    const all = options({ formats: [{ type: 'json' }], redactPII: true, zeroDataRetention: true });
    // 25 pages in 3 ranges: 25 + 3 × 4 (json) + 4 × 25 (redaction: 4 per range + 4 per page after each range's first) + 3 × 1 (ZDR)
    expect(estimateCredits(pdf(25), all, 3)).toBe(25 + 12 + 100 + 3);
  });

  it('counts PDF pages only up to maxPages, redaction included', () => {
    const capped = options({ parsers: [{ type: 'pdf', maxPages: 4 }], redactPII: true });
    expect(billedPages(pdf(10), capped)).toBe(4);
    expect(billedPages(pdf(3), capped)).toBe(3);
    // 4 + 4 + 3 × 4 = 20
    expect(estimateCredits(pdf(10), capped)).toBe(20);
    expect(billedPages(other, capped)).toBe(1);
  });
});

describe('countPdfPages', () => {
  it('reads the page count of each fixture PDF as pdfinfo does', async () => {
    for (const [file, pages] of Object.entries(PDFINFO_PAGES)) {
      const counted = await countPdfPages(readCorpusBytes(file));
      expect({ file, pages: counted.pages, note: counted.note }).toEqual({ file, pages, note: undefined });
    }
    const threePages = new Uint8Array(readFileSync(fileURLToPath(new URL('../engine/pdf/fixtures/acme-report-3p.pdf', import.meta.url))));
    expect((await countPdfPages(threePages)).pages).toBe(3);
  });

  it('reads the page tree without loading the file, plain or in compressed object streams, wherever the trailer is', async () => {
    const plain = await generatedPdf(23, false);
    const packed = await generatedPdf(17, true);
    expect(await pdfjsPageCount(plain)).toBe(23);
    expect(await pdfjsPageCount(packed)).toBe(17);
    expect(await countPdfPages(plain)).toEqual({ pages: 23, method: 'page-tree' });
    expect(await countPdfPages(packed)).toEqual({ pages: 17, method: 'page-tree' });
    // A trailer more than a megabyte from the end (garbage appended after %%EOF) is still found.
    const padded = Buffer.concat([Buffer.from(await generatedPdf(9, false)), Buffer.from(`\n%${'x'.repeat(1_200_000)}\n`)]);
    expect(pageTreeCount(padded)).toBe(9);
    expect(await countPdfPages(padded)).toEqual({ pages: 9, method: 'page-tree' });
  });

  it('takes the newest page tree of an incrementally updated file', async () => {
    const original = Buffer.from(await generatedPdf(5, false));
    // An incremental update replacing the page tree root with one that lists 2 of the pages.
    const rootRef = /\/Root\s+(\d+)\s+0\s+R/.exec(original.toString('latin1'))!;
    const catalog = new RegExp(`(?<!\\d)${rootRef[1]} 0 obj([\\s\\S]*?)endobj`).exec(original.toString('latin1'))!;
    const pagesNumber = /\/Pages\s+(\d+)\s+0\s+R/.exec(catalog[1]!)![1];
    const oldTree = new RegExp(`(?<!\\d)${pagesNumber} 0 obj([\\s\\S]*?)endobj`).exec(original.toString('latin1'))![1]!;
    const kids = [...oldTree.matchAll(/(\d+) 0 R/g)].slice(0, 2).map((match) => `${match[1]} 0 R`);
    const update = `\n${pagesNumber} 0 obj\n<< /Type /Pages /Kids [${kids.join(' ')}] /Count 2 >>\nendobj\ntrailer\n<< /Root ${rootRef[1]} 0 R >>\n%%EOF\n`;
    const updated = Buffer.concat([original, Buffer.from(update, 'latin1')]);
    expect(pageTreeCount(updated)).toBe(2);
  });

  it('counts the pages of a PDF cut short, its trailers lost, from its newest catalog (as the engine reads it)', async () => {
    for (const name of ['pdf/multi-column-2p.pdf', 'pdf/code_and_formula.pdf']) {
      const bytes = readCorpusBytes(name);
      // The last 3 %: every trailer, and the cross-reference streams that name the catalog, are gone.
      const cut = bytes.subarray(0, Math.floor(bytes.length * 0.97));
      expect(await countPdfPages(cut), name).toEqual({ pages: PDFINFO_PAGES[name], method: 'page-tree' });
    }
  });

  it('counts an unreadable PDF as 1 page, with a note, and leaves console.warn as it was', async () => {
    const warn = console.warn;
    const [truncated, empty] = await Promise.all([
      countPdfPages(readCorpusBytes('pdf/TRUNCATED-layout-parser-paper-fast.pdf')),
      countPdfPages(readCorpusBytes('pdf/EMPTY-zero-bytes.pdf')),
    ]);
    expect(truncated).toMatchObject({ pages: 1, method: 'unreadable' });
    expect(truncated.note).toMatch(/not readable as a PDF .*counted as 1 page/);
    expect(empty).toMatchObject({ pages: 1, method: 'unreadable' });
    expect(empty.note).toContain('empty file');
    expect(console.warn).toBe(warn);
  });

  it('takes a file as a PDF by its bytes or its name', () => {
    expect(isPdf(Buffer.from('%PDF-1.7\n...'), 'scan.bin')).toBe(true);
    expect(isPdf(Buffer.from('<html></html>'), 'page.html')).toBe(false);
    expect(isPdf(Buffer.alloc(0), 'empty.pdf')).toBe(true);
  });
});

describe('costOfBytes', () => {
  it('prices a long PDF as the page ranges it will be parsed in', async () => {
    const long = await generatedPdf(23, false);
    const json = options({ formats: [{ type: 'json' }] });
    // At most 10 pages a range: 3 requests, each +4 for json.
    expect(await costOfBytes(long, 'long.pdf', json, 10)).toMatchObject({ pages: 23, requests: 3, credits: 23 + 12 });
    // The default range is the timeout / 500 ms: 60 pages at 30 s, so one request.
    expect(await costOfBytes(long, 'long.pdf', json)).toMatchObject({ requests: 1, credits: 23 + 4 });
    // maxPages caps what is parsed, and so the ranges: 2 of at most 10 pages.
    expect(await costOfBytes(long, 'long.pdf', options({ formats: [{ type: 'json' }], parsers: [{ type: 'pdf', maxPages: 15 }] }), 10)).toMatchObject({
      pages: 15,
      requests: 2,
      credits: 15 + 8,
    });
  });


  it('prices fixture documents of several formats by the rules', async () => {
    const redacted = options({ redactPII: true, formats: [{ type: 'json' }] });
    // 2 pages: 2 + 4 (json) + 4 + 4 (redaction, one extra page) = 14
    expect(await costOfBytes(readCorpusBytes('pdf/code_and_formula.pdf'), 'code_and_formula.pdf', redacted)).toEqual({
      pdf: true,
      pages: 2,
      requests: 1,
      credits: 14,
      note: undefined,
    });
    // not a PDF: 1 + 4 + 4 = 9, whatever its size
    expect(await costOfBytes(readCorpusBytes('docx/equations.docx'), 'equations.docx', redacted)).toEqual({ pdf: false, pages: 1, requests: 1, credits: 9 });
    expect(await costOfBytes(readCorpusBytes('csv/csv-comma.csv'), 'csv-comma.csv', options())).toEqual({ pdf: false, pages: 1, requests: 1, credits: 1 });
  });
});
