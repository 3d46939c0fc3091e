/**
 * PDFs cut short, as a download or an upload that stopped early leaves them: their cross-reference table and trailer
 * gone, often their last objects too. recover.ts repairs them (every whole object found, those in object streams
 * too, a new cross-reference stream), and the pages that survived are read as the intact file's are.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { terminateOcrWorkers } from '../../../src/engine/pdf/ocr/tesseract.js';
import { cutShort, recoverTruncatedPdf } from '../../../src/engine/pdf/recover.js';
import { convertBytes, corpusBytes, mainMarkdown, PDF_CORPUS, rejectionOf } from './helpers.js';

afterAll(() => terminateOcrWorkers());

const DAMAGED = 'The PDF is damaged (no usable cross-reference table); its pages were recovered.';

function benchPage(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../../fixtures/pdf-bench/${name}`, import.meta.url)));
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** The file's first `share` of its bytes. */
function cut(bytes: Uint8Array, share: number): Uint8Array {
  return bytes.subarray(0, Math.floor(bytes.length * share));
}

describe('a PDF cut short reads as the intact file, with a warning', () => {
  // Written by PyPDF2: classic cross-reference table, the page and its fonts early in the file, a picture after.
  it('objects in the clear: cut anywhere past its page and fonts', async () => {
    const bytes = benchPage('structure-01030000000008.pdf');
    const intact = mainMarkdown(await convertBytes(bytes, { mode: 'fast' }));
    for (const share of [0.995, 0.9, 0.7]) {
      const doc = await convertBytes(cut(bytes, share), { mode: 'fast' });
      expect(doc.warnings, `${share}`).toEqual([DAMAGED]);
      expect(mainMarkdown(doc), `${share}`).toBe(intact);
    }
  });

  // Written by Word: the catalogue, the page tree and the pages in compressed object streams, which pdfjs's own
  // rebuilding of a lost table never looks into.
  it('objects in object streams', async () => {
    const bytes = corpusBytes('right_to_left_01.pdf');
    const intact = mainMarkdown(await convertBytes(bytes, { mode: 'fast' }));
    expect(intact).toContain('تعتبر البرمجة بلغة R و Python من');
    for (const share of [0.995, 0.9]) {
      const doc = await convertBytes(cut(bytes, share), { mode: 'fast' });
      expect(doc.warnings, `${share}`).toEqual([DAMAGED]);
      expect(mainMarkdown(doc), `${share}`).toBe(intact);
    }
  });

  // Linearized by pdfTeX, then saved again by macOS in append mode: the update's page tree (two pages) replaces the
  // first revision's (one page), and the update's cross-reference stream is what the cut takes away.
  it('an incremental update: the last revision of the page tree counts', async () => {
    const bytes = corpusBytes('code_and_formula.pdf');
    const intact = await convertBytes(bytes, { mode: 'fast' });
    expect(intact.metadata.numPages).toBe(2);
    const doc = await convertBytes(bytes.subarray(0, latin1(bytes).lastIndexOf('startxref')), { mode: 'fast' });
    expect(doc.metadata.numPages).toBe(2);
    expect(doc.warnings).toEqual([DAMAGED]);
    expect(mainMarkdown(doc)).toBe(mainMarkdown(intact));
  });

  it('a page whose content the file was cut in: the text drawn before the cut', async () => {
    const bytes = benchPage('structure-01030000000072.pdf');
    const intact = mainMarkdown(await convertBytes(bytes, { mode: 'fast' }));
    // Its page's content stream is the file's last object.
    const doc = await convertBytes(bytes.subarray(0, latin1(bytes).lastIndexOf('34 0 obj') + 1200), { mode: 'fast' });
    const markdown = mainMarkdown(doc);
    const sentence = "As of 1 December 2021, the Komnas HAM's YouTube channel has 2,290 subscribers with 185,676 total views.";
    expect(intact).toContain(sentence);
    expect(markdown).toContain(sentence);
    expect(markdown.length).toBeLessThan(intact.length);
    expect(doc.warnings).toEqual([DAMAGED]);
  });

  it('mode auto reads a scan cut short by OCR, from the repaired file', async () => {
    const bytes = corpusBytes('ocr_test.pdf');
    const doc = await convertBytes(bytes.subarray(0, latin1(bytes).lastIndexOf('xref')), { mode: 'auto' });
    expect(doc.warnings).toEqual([DAMAGED]);
    expect(mainMarkdown(doc)).toBe(readFileSync(new URL('ocr_test.expected.md', PDF_CORPUS), 'utf8').trim());
  });
});

describe('what cannot be recovered fails with its cause', () => {
  it('an encrypted file cut short: its key needs the lost trailer, so it is not read as empty pages', async () => {
    const error = await rejectionOf(convertBytes(cut(corpusBytes('password.pdf'), 0.9), { mode: 'fast' }));
    expect(error.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(error.message).toMatch(/^the PDF is corrupt or truncated and no page could be recovered/);
  });

  it('a file that lost the fonts its text is drawn with says so, not that it is a scan', async () => {
    // Its fonts come after the page; cut before them, the page's text cannot be read.
    const bytes = benchPage('structure-01030000000008.pdf');
    const page = latin1(bytes).indexOf('/Font');
    const error = await rejectionOf(convertBytes(bytes.subarray(0, latin1(bytes).indexOf('endobj', page) + 2000), { mode: 'fast' }));
    expect(error.apiCode).toBe('OCR_REQUIRED');
    expect(error.message).toMatch(/^page\(s\) 1 show no text: the PDF is damaged \(cut short\)/);
  });
});

describe('recoverTruncatedPdf', () => {
  /** A one-page PDF written by hand, its text `words`, as object 4 (its content stream). */
  function onePage(words: string, update?: string): string {
    const content = (text: string) => `BT /F1 24 Tf 72 700 Td (${text}) Tj ET`;
    return [
      '%PDF-1.4',
      '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
      '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
      '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >> endobj',
      `4 0 obj << /Length ${content(words).length} >> stream\n${content(words)}\nendstream endobj`,
      '5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj',
      // Saved again, without its cross-reference section: what a cut after an incremental update leaves.
      ...(update ? [`4 0 obj << /Length ${content(update).length} >> stream\n${content(update)}\nendstream endobj`] : []),
      '',
    ].join('\n');
  }

  it('the last revision of an object wins', async () => {
    const bytes = new TextEncoder().encode(onePage('First draft', 'Final text'));
    expect(cutShort(bytes)).toBe(true);
    const doc = await convertBytes(bytes, { mode: 'fast' });
    expect(mainMarkdown(doc)).toBe('Final text');
  });

  it('is not asked of a file whose end holds, even with bytes after it', () => {
    const intact = benchPage('structure-01030000000008.pdf');
    expect(cutShort(intact)).toBe(false);
    expect(cutShort(new Uint8Array([...intact, ...new TextEncoder().encode('\r\n-- \r\nsent from a phone\r\n')]))).toBe(false);
    expect(cutShort(cut(intact, 0.99))).toBe(true);
  });

  it('the repaired file is one any reader opens: a cross-reference stream that points at every object', () => {
    const repaired = recoverTruncatedPdf(cut(benchPage('structure-01030000000008.pdf'), 0.9))!;
    const tail = latin1(repaired.subarray(repaired.length - 64));
    const start = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(tail)?.[1]);
    expect(latin1(repaired.subarray(start, start + 200))).toMatch(/^\d+ 0 obj\n<< \/Type \/XRef \/Size \d+ \/W \[1 4 2\] \/Root 3 0 R/);
  });

  it('gives up when no page survived', () => {
    expect(recoverTruncatedPdf(new TextEncoder().encode('%PDF-1.4\n1 0 obj\n<< /Length 3 >>\nstream\nabc'))).toBeNull();
    expect(recoverTruncatedPdf(cut(corpusBytes('TRUNCATED-layout-parser-paper-fast.pdf'), 1))).toBeNull();
  });
});
