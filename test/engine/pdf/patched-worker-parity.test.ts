/**
 * The patched worker's claim (src/engine/pdf/pdfjs-worker.ts): the same text as pdfjs as published. Every
 * readable fixture PDF is read twice, by stock pdfjs-dist (legacy build, its own worker module, in a thread of
 * its own: stock-pdfjs-thread.mjs) and through docmill's patched worker in this thread; every page must give
 * the same text items: strings, transforms, widths, heights, direction, line ends, fonts. Aside: the font
 * facts the patches add (`docmill` in the styles, and ascent/descent, which pdfjs takes from a font program
 * the patched worker does not parse when a ToUnicode map gives the text), and the rule marker items. The one
 * patch that changes the text by design (the order of a right-to-left glyph's characters, which stock pdfjs gives
 * backwards: right-to-left-glyphs.ts) is off here; corpus.test.ts checks what it does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPdf } from '../../../src/engine/pdf/convert-pdf.js';
import { pdfjsTextOptions } from '../../../src/engine/pdf/pdfjs-worker.js';
import { recoverTruncatedPdf } from '../../../src/engine/pdf/recover.js';
import { FIXTURE_DIR, PDF_CORPUS } from './helpers.js';
import { inventoryReportPdf, plainTablePdf } from './ruled-pdfs.js';

interface TextItemFacts {
  str: string;
  dir: string;
  width: number;
  height: number;
  transform: number[];
  fontName: string;
  hasEOL: boolean;
}

interface StylesFacts {
  fontFamily?: string;
  vertical?: boolean;
}

interface PageText {
  items: TextItemFacts[];
  styles: Record<string, StylesFacts>;
}

/** pdfjs names fonts `g_d<document>_f<n>`; the document number counts documents per worker, so it is dropped. */
function fontKey(name: string): string {
  return name.replace(/^g_d\d+_/, '');
}

function pageText(content: { items: unknown[]; styles: Record<string, unknown> }): PageText {
  const items = content.items
    .filter((item): item is TextItemFacts => typeof item === 'object' && item !== null && 'str' in item)
    .map(({ str, dir, width, height, transform, fontName, hasEOL }) => ({
      str,
      dir,
      width,
      height,
      transform: [...transform],
      fontName: fontKey(fontName),
      hasEOL,
    }));
  const styles: Record<string, StylesFacts> = {};
  for (const [name, style] of Object.entries(content.styles)) {
    const { fontFamily, vertical } = style as StylesFacts;
    styles[fontKey(name)] = { fontFamily, vertical };
  }
  return { items, styles };
}

const stockThread = new Worker(new URL('./stock-pdfjs-thread.mjs', import.meta.url));
beforeAll(() => {
  pdfjsTextOptions.rightToLeftGlyphs = false;
});
afterAll(async () => {
  pdfjsTextOptions.rightToLeftGlyphs = true;
  await stockThread.terminate();
});
let nextId = 0;

function stockText(bytes: Uint8Array): Promise<PageText[] | { error: string }> {
  const id = nextId++;
  return new Promise((resolve) => {
    const onMessage = (message: { id: number; pages?: PageText[]; error?: string }) => {
      if (message.id !== id) return;
      stockThread.off('message', onMessage);
      resolve(message.error !== undefined ? { error: message.error } : message.pages!.map(pageText));
    };
    stockThread.on('message', onMessage);
    stockThread.postMessage({ id, bytes: bytes.slice() });
  });
}

async function patchedText(bytes: Uint8Array): Promise<PageText[]> {
  const { doc } = await openPdf(bytes);
  try {
    const pages: PageText[] = [];
    for (let number = 1; number <= doc.numPages; number++) {
      const page = await doc.getPage(number);
      pages.push(pageText(await page.getTextContent({ includeMarkedContent: false })));
      page.cleanup();
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}

function pdfFiles(folder: URL): [string, Uint8Array][] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.pdf'))
    .map((name) => [name, new Uint8Array(readFileSync(new URL(name, folder)))]);
}

const UNREADABLE = new Set(['EMPTY-zero-bytes.pdf', 'TRUNCATED-layout-parser-paper-fast.pdf', 'password.pdf']);

const documents: [string, Uint8Array][] = [
  ...pdfFiles(PDF_CORPUS).filter(([name]) => !UNREADABLE.has(name)),
  ...pdfFiles(FIXTURE_DIR),
  ['generated: ruled 3 × 3 table (strokes)', plainTablePdf('stroke')],
  ['generated: ruled 3 × 3 table (thin fills)', plainTablePdf('fill')],
  ['generated: inventory report', inventoryReportPdf()],
];

describe('the patched pdfjs worker gives the text of pdfjs as published', () => {
  it('covers the fixture PDFs (corpus and generated)', () => {
    expect(documents.length).toBeGreaterThanOrEqual(14);
  });

  for (const [name, original] of documents) {
    it(`${name}: the same text items on every page`, async () => {
      let stock = await stockText(original);
      let bytes = original;
      if ('error' in stock) {
        // A file pdfjs cannot open (cut short) is compared as docmill reads it: repaired.
        const repaired = recoverTruncatedPdf(original);
        expect(repaired, `stock pdfjs: ${stock.error}`).not.toBeNull();
        bytes = repaired!;
        stock = await stockText(bytes);
        if ('error' in stock) throw new Error(`stock pdfjs cannot read the repaired file either: ${stock.error}`);
      }
      const patched = await patchedText(bytes);
      expect(patched).toHaveLength(stock.length);
      stock.forEach((page, index) => {
        expect(patched[index]!.items, `page ${index + 1}`).toEqual(page.items);
        expect(patched[index]!.styles, `page ${index + 1} styles`).toEqual(page.styles);
      });
      expect(stock.some((page) => page.items.length > 0) || /loremipsum|ocr_test/.test(name)).toBe(true);
    });
  }
});
