/**
 * A caption set centred under its figure, three lines of different widths as a book sets them (the PDF benchmark's
 * photo captions): one caption, whole, in the Markdown, in its block and as the picture's alt text, though each line
 * is short and the next one's first word would have fit after it. And a sentence broken over two centred lines that
 * goes on with a quoted word in lower case runs on, as one going on in lower case does.
 */
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { liftDataImages } from '../../../src/backend/embedded-images.js';
import { validateParseOptions } from '../../../src/contract/validation.js';
import { parseDocument } from '../../../src/engine/engine.js';
import { encodePng } from '../../../src/engine/pdf/figures/png.js';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';
import { PHOTO, photoPixels } from './figure-pdfs.js';

const CAPTION = [
  'Figure 1.15. On the trail in the Yolcultac (yol k’ultak,',
  '“center of the brushland”) forest, municipio of Nentón.',
  'May 1965, at the end of the dry season. Photo by the author.',
];
const WHOLE_CAPTION = "Figure 1.15. On the trail in the Yolcultac (yol k'ultak, \"center of the brushland\") forest, municipio of Nentón. May 1965, at the end of the dry season. Photo by the author.";

function centred(page: PDFPage, text: string, y: number, font: PDFFont, size: number): void {
  const width = font.widthOfTextAtSize(text, size);
  page.drawText(text, { x: (page.getWidth() - width) / 2, y, size, font });
}

/** A book's page (432 × 648 pt): a photo, its caption centred under it at 10 pt on 11.5 pt, then the text. */
async function captionedPhotoPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  const page = pdf.addPage([432, 648]);
  const photo = await pdf.embedPng(encodePng(PHOTO.width, PHOTO.height, 3, photoPixels()));
  page.drawImage(photo, { x: 66, y: 200, width: 300, height: 225 });
  CAPTION.forEach((line, i) => centred(page, line, 180 - 11.5 * i, font, 10));
  page.drawText('The trail climbs for a day through the forest before it reaches the first village.', { x: 48, y: 110, size: 11, font });
  return pdf.save();
}

/** A credit line broken by hand over two centred lines, the second going on with a quoted word. */
async function centredCreditPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  page.drawText('The report was written over the winter and reviewed by the whole team in the spring.', { x: 72, y: 700, size: 11, font });
  centred(page, 'This work is published under the', 400, font, 11);
  centred(page, '“attribution share-alike” licence, version 4.0 of it.', 386, font, 11);
  return pdf.save();
}

describe('a caption centred under its figure, over three lines', () => {
  let bytes: Uint8Array;
  beforeAll(async () => {
    bytes = await captionedPhotoPdf();
  });

  it('is one caption block holding all three lines, in the Markdown as one paragraph', async () => {
    const model = await convertBytes(bytes, { mode: 'fast' });
    const captions = allBlocks(model).filter((block) => block.type === 'caption');
    expect(captions.map((block) => block.markdown)).toEqual([WHOLE_CAPTION]);
    expect(mainMarkdown(model)).toContain(WHOLE_CAPTION);
  });

  it('gives the picture the whole caption as its alt text', async () => {
    const validation = validateParseOptions({ parsers: [{ type: 'pdf', mode: 'fast' }], removeBase64Images: false });
    if (!validation.ok) throw new Error('invalid options');
    const data = await parseDocument({ bytes, fileName: 'trail.pdf', options: validation.options });
    const { data: lifted } = liftDataImages(data);
    const links = [...(lifted.markdown ?? '').matchAll(/!\[([^\]]*)\]\(/g)].map((match) => match[1]);
    expect(links).toEqual([WHOLE_CAPTION]);
  });
});

describe('a sentence broken over two centred lines', () => {
  it('runs on where the lower line opens with a quoted word in lower case', async () => {
    const model = await convertBytes(await centredCreditPdf(), { mode: 'fast' });
    expect(mainMarkdown(model)).toContain('This work is published under the "attribution share-alike" licence, version 4.0 of it.');
  });
});
