/**
 * Pages whose text runs sideways or upside down: a page a viewer is told to turn (`/Rotate`) over upright text,
 * and a table set sideways on a portrait page (drawn turned, the page number upright). They read as the same page
 * set upright does, and their blocks' boxes are in the page as a viewer shows it. The page is LibreOffice's print
 * of a report's table (`test/fixtures/printed/grouped-table.pdf`), turned by pdf-lib; the scan is the test corpus's
 * `ocr_test.pdf`, turned the same way.
 */
import { readFileSync } from 'node:fs';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import type { DocumentModel } from '../../../src/engine/model.js';
import { pageTurn } from '../../../src/engine/pdf/liteparse/upright-pages.js';
import { allBlocks, convertBytes, convertWithPdfjs, corpusBytes, mainMarkdown } from './helpers.js';

const UPRIGHT = new Uint8Array(readFileSync(new URL('../../fixtures/printed/grouped-table.pdf', import.meta.url)));
const GERMANY = '| Germany | 1,204 | 1,310 | 8.8 |';

/** The upright page shown turned clockwise by `turn` degrees (its /Rotate). */
async function shownTurned(turn: number, upright: Uint8Array = UPRIGHT): Promise<Uint8Array> {
  const doc = await PDFDocument.load(upright);
  doc.getPage(0).setRotation(degrees(turn));
  return doc.save();
}

/**
 * The page drawn turned a quarter on a portrait page (`anticlockwise`: it reads from the foot of the page up), scaled
 * to fit, with an upright page number under it.
 */
async function setSideways(anticlockwise: boolean): Promise<Uint8Array> {
  const source = await PDFDocument.load(UPRIGHT);
  const doc = await PDFDocument.create();
  const [drawing] = await doc.embedPages([source.getPage(0)]);
  const { width, height } = drawing!;
  const scale = width / height;
  const page = doc.addPage([width, height]);
  page.drawPage(drawing!, {
    x: anticlockwise ? width : 0,
    y: anticlockwise ? (height - width * scale) / 2 : (height + width * scale) / 2,
    rotate: degrees(anticlockwise ? 90 : -90),
    xScale: scale,
    yScale: scale,
  });
  page.drawText('7', { x: width / 2, y: 20, size: 10, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

function blockBox(model: DocumentModel, ending: string): [number, number, number, number] {
  const block = allBlocks(model).find((candidate) => candidate.markdown.endsWith(ending));
  expect(block?.bbox).toBeTruthy();
  return block!.bbox!;
}

const headingBox = (model: DocumentModel) => blockBox(model, 'Market results');

/** Where the box [x0, y0, x1, y1] of an upright page is shown, the page turned clockwise by `turn`. */
function shownBox([x0, y0, x1, y1]: [number, number, number, number], turn: number): [number, number, number, number] {
  if (turn === 90) return [1 - y1, x0, 1 - y0, x1];
  if (turn === 180) return [1 - x1, 1 - y1, 1 - x0, 1 - y0];
  return [y0, 1 - x1, y1, 1 - x0];
}

describe('pages whose text runs sideways or upside down', () => {
  it('a page a viewer shows turned reads as the upright page, its boxes where the viewer shows them', async () => {
    const upright = await convertBytes(UPRIGHT, { mode: 'fast' });
    const expected = mainMarkdown(upright);
    expect(expected).toContain(GERMANY);
    const uprightBox = headingBox(upright);
    for (const turn of [90, 180, 270]) {
      const model = await convertBytes(await shownTurned(turn), { mode: 'fast' });
      expect(mainMarkdown(model), `turned ${turn}`).toBe(expected);
      const box = headingBox(model);
      const shown = shownBox(uprightBox, turn);
      box.forEach((value, i) => expect(value, `turned ${turn}, bbox[${i}]`).toBeCloseTo(shown[i]!, 2));
      const page = model.pages[0]!;
      expect(page.width! > page.height!, `turned ${turn}: the page as shown`).toBe(turn !== 180);
    }
  });

  it('a table set sideways on a portrait page is a table, read either way round', async () => {
    for (const anticlockwise of [true, false]) {
      const markdown = mainMarkdown(await convertBytes(await setSideways(anticlockwise), { mode: 'fast' }));
      // The page's heading a heading (the title of a one-page document).
      expect(markdown, `anticlockwise ${anticlockwise}`).toMatch(/^#{1,2} 2 Market results$/m);
      expect(markdown).toContain('Sales grew in most countries in 2024. The table below gives the units sold in each country, grouped by region, with the change from the year before.');
      expect(markdown).toContain('| Country | 2023 | 2024 | Change (%) |');
      expect(markdown).toContain(GERMANY);
      expect(markdown).toContain('| Total | 5,172 | 5,369 | 3.8 |');
    }
  });

  it('the built-in pdfjs path (no LiteParse) reads them as it reads the upright page', async () => {
    const upright = await convertWithPdfjs(UPRIGHT, { mode: 'fast' });
    const uprightBox = headingBox(upright);
    for (const turn of [90, 180, 270]) {
      const model = await convertWithPdfjs(await shownTurned(turn), { mode: 'fast' });
      expect(mainMarkdown(model), `turned ${turn}`).toBe(mainMarkdown(upright));
      const shown = shownBox(uprightBox, turn);
      headingBox(model).forEach((value, i) => expect(value, `turned ${turn}, bbox[${i}]`).toBeCloseTo(shown[i]!, 2));
    }
    for (const anticlockwise of [true, false]) {
      expect(mainMarkdown(await convertWithPdfjs(await setSideways(anticlockwise), { mode: 'fast' }))).toContain(GERMANY);
    }
  });

  it('mode auto reads a sideways page the same', async () => {
    const markdown = mainMarkdown(await convertBytes(await setSideways(true), { mode: 'auto' }));
    expect(markdown).toContain(GERMANY);
  });

  it('a scan shown turned or upside down is read by OCR as the upright scan is', async () => {
    const scan = corpusBytes('ocr_test.pdf');
    const upright = await convertBytes(scan, { mode: 'ocr' });
    const expected = mainMarkdown(upright);
    expect(expected).toContain('Docling bundles PDF document conversion to JSON and Markdown');
    const uprightBox = blockBox(upright, 'self contained package');
    for (const turn of [90, 180, 270]) {
      const model = await convertBytes(await shownTurned(turn, scan), { mode: 'ocr' });
      expect(mainMarkdown(model), `turned ${turn}`).toBe(expected);
      const box = blockBox(model, 'self contained package');
      const shown = shownBox(uprightBox, turn);
      box.forEach((value, i) => expect(value, `turned ${turn}, bbox[${i}]`).toBeCloseTo(shown[i]!, 2));
    }
  });

  it('a page is turned only when most of its text runs one turned way', () => {
    const item = (text: string, rotation: number) => ({ text, x: 0, y: 0, width: 10, height: 10, rotation });
    const level = item('A paragraph of level text, the most of the page.', 0);
    // An axis label turned a quarter beside a chart's level text: the page stays as it is.
    expect(pageTurn([level, item('Units sold', 270)])).toBe(0);
    expect(pageTurn([item('A turned table of more characters', 90.000008), item('7', 0)])).toBe(90);
    expect(pageTurn([item('Upside down, every line of it', 180), item('Upside down too', 180)])).toBe(180);
    // Set at a slant (a watermark), never a turn of the page.
    expect(pageTurn([item('DRAFT DRAFT DRAFT DRAFT', 45), level])).toBe(0);
  });
});
