/**
 * A caption set beside its figure, as textbooks set them (a chart on the left, `Figure 1.1.` and its description
 * in a narrow column on its right, from its top down): it is the picture's alt text, and the picture comes before
 * it in the Markdown, as the text OCR reads in the chart does in mode auto. A caption on the figure's left stays
 * before it; one under another figure is that figure's.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { liftDataImages } from '../../../src/backend/embedded-images.js';
import { validateParseOptions } from '../../../src/contract/validation.js';
import { parseDocument } from '../../../src/engine/engine.js';
import { encodePng } from '../../../src/engine/pdf/figures/png.js';
import { insertRegionBlocks } from '../../../src/engine/pdf/ocr/ocr-layout.js';
import { sideOf } from '../../../src/engine/pdf/side-captions.js';
import type { ProtoBlock, Rect } from '../../../src/engine/pdf/types.js';
import { PHOTO, photoPixels } from './figure-pdfs.js';

const SIDE_CAPTION = ['Figure 1.1.', 'Production of', 'apples and', 'blueberries,', '2016-2020.'];

/** A book's page (432 × 648 pt): a paragraph, a photo with its caption on the `side` given, a paragraph under. */
async function sideCaptionPdf(side: 'left' | 'right'): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([432, 648]);
  page.drawText('To get started, consider the data in Figure 1.1 below.', { x: 57, y: 520, size: 11, font });
  const photo = await pdf.embedPng(encodePng(PHOTO.width, PHOTO.height, 3, photoPixels()));
  const [photoX, captionX] = side === 'right' ? [57, 292] : [116, 57];
  page.drawImage(photo, { x: photoX, y: 330, width: 224, height: 168 });
  SIDE_CAPTION.forEach((line, i) => page.drawText(line, { x: captionX, y: 488 - 10 * i, size: 8, font }));
  page.drawText('The underlying raw data went through many stages before it was shown to you.', { x: 57, y: 300, size: 11, font });
  return pdf.save();
}

async function markdownWithPictures(bytes: Uint8Array): Promise<string> {
  const validation = validateParseOptions({ parsers: [{ type: 'pdf', mode: 'fast' }], removeBase64Images: false });
  if (!validation.ok) throw new Error('invalid options');
  const data = await parseDocument({ bytes, fileName: 'journey.pdf', options: validation.options });
  return liftDataImages(data).data.markdown ?? '';
}

const WHOLE = SIDE_CAPTION.join(' ');

describe('a caption beside its figure', () => {
  it('on the right: the picture first, the caption its alt text, then the caption, then the text under both', async () => {
    const markdown = await markdownWithPictures(await sideCaptionPdf('right'));
    const picture = markdown.indexOf(`![${WHOLE}](`);
    expect(picture).toBeGreaterThan(markdown.indexOf('To get started'));
    expect(markdown.indexOf(`\n${WHOLE}`)).toBeGreaterThan(picture);
    expect(markdown.indexOf('The underlying raw data')).toBeGreaterThan(markdown.indexOf(`\n${WHOLE}`));
  });

  it('on the left: the caption first, then the picture, the caption its alt text', async () => {
    const markdown = await markdownWithPictures(await sideCaptionPdf('left'));
    const picture = markdown.indexOf(`![${WHOLE}](`);
    expect(markdown.indexOf(`\n${WHOLE}`)).toBeGreaterThan(markdown.indexOf('To get started'));
    expect(picture).toBeGreaterThan(markdown.indexOf(`\n${WHOLE}`));
  });
});

/** A two-column page: the left column's text over a photo at its foot; the right column's text, then a table's caption level with the photo. */
async function twoColumnPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  const left = 'The left column opens the study with its questions and the places where the survey was held.';
  const right = 'The right column reports what the survey found, region by region, in the table below.';
  const lines = (text: string, x: number, top: number) => {
    for (let i = 0; i < 12; i++) page.drawText(`${text.slice(0, 45)} ${i + 1}.`, { x, y: top - 14 * i, size: 10, font });
  };
  lines(left, 72, 720);
  lines(right, 322, 720);
  const photo = await pdf.embedPng(encodePng(PHOTO.width, PHOTO.height, 3, photoPixels()));
  page.drawImage(photo, { x: 72, y: 380, width: 218, height: 164 });
  page.drawText('Table 2: What the survey found in each region and year.', { x: 322, y: 520, size: 9, font });
  page.drawText('North 12 14 16', { x: 322, y: 500, size: 10, font });
  page.drawText('South 10 11 13', { x: 322, y: 486, size: 10, font });
  return pdf.save();
}

describe('a caption of the next column, level with a figure', () => {
  it('is not the figure\'s: the picture stays at its column\'s foot, with no alt text', async () => {
    const markdown = await markdownWithPictures(await twoColumnPdf());
    const picture = markdown.indexOf('![](');
    expect(picture).toBeGreaterThan(markdown.indexOf('The left column opens'));
    expect(picture).toBeLessThan(markdown.indexOf('The right column reports'));
  });
});

describe('sideOf', () => {
  const figure: Rect = { x0: 57, y0: 150, x1: 281, y1: 318 };
  it('finds a caption level with the figure and near it, on either side', () => {
    expect(sideOf(figure, { x0: 292, y0: 152, x1: 340, y1: 250 }, 432)?.side).toBe('right');
    expect(sideOf(figure, { x0: 5, y0: 160, x1: 50, y1: 250 }, 432)?.side).toBe('left');
  });
  it("leaves a caption as wide as the figure: the next column's, level with it", () => {
    expect(sideOf({ x0: 72, y0: 500, x1: 290, y1: 700 }, { x0: 306, y0: 560, x1: 540, y1: 585 }, 612)).toBeUndefined();
  });
  it('leaves a caption far from it, above it, or under it', () => {
    expect(sideOf(figure, { x0: 330, y0: 152, x1: 400, y1: 250 }, 432)).toBeUndefined();
    expect(sideOf(figure, { x0: 292, y0: 100, x1: 340, y1: 140 }, 432)).toBeUndefined();
    expect(sideOf(figure, { x0: 292, y0: 320, x1: 340, y1: 340 }, 432)).toBeUndefined();
  });
});

function block(kind: ProtoBlock['kind'], text: string, rect: Rect, source?: string): ProtoBlock {
  return { kind, markdown: text, text, rect, lines: 1, size: 10, bold: false, chars: text.length, ...(source ? { source } : {}) };
}

describe('insertRegionBlocks', () => {
  const region: Rect = { x0: 57, y0: 150, x1: 281, y1: 318 };
  const read = [block('paragraph', 'Fruit Production in British Columbia', { x0: 80, y0: 152, x1: 260, y1: 162 }, 'layout_ocr')];
  const lead = block('paragraph', 'To get started.', { x0: 57, y0: 112, x1: 339, y1: 123 });
  const under = block('paragraph', 'The underlying raw data.', { x0: 57, y0: 330, x1: 339, y1: 342 });

  it('puts what OCR read in a chart before the caption on its right', () => {
    const caption = block('caption', WHOLE, { x0: 291, y0: 142, x1: 338, y1: 248 });
    const blocks = insertRegionBlocks([lead, caption, under], region, read, 432);
    expect(blocks.map((b) => b.text)).toEqual(['To get started.', 'Fruit Production in British Columbia', WHOLE, 'The underlying raw data.']);
  });

  it('after a caption on its left, before the text under it', () => {
    const caption = block('caption', WHOLE, { x0: 5, y0: 150, x1: 50, y1: 248 });
    const blocks = insertRegionBlocks([lead, caption, under], region, read, 432);
    expect(blocks.map((b) => b.text)).toEqual(['To get started.', WHOLE, 'Fruit Production in British Columbia', 'The underlying raw data.']);
  });
});
