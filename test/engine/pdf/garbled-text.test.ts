/**
 * Text whose glyphs the PDF maps to nothing readable, on a page whose other text reads well: headings and a
 * paragraph set in fonts whose ToUnicode maps give U+FFFD for every glyph, as in a copy whose writer lost the
 * fonts' own encodings (pdftocairo does this to fonts mapped only through their encodings). Mode auto reads those
 * blocks again by OCR and keeps their place, size and weight; mode fast, which never OCRs, keeps the text layer's.
 */
import { PDFDocument, PDFName, StandardFonts, type PDFFont } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { garbledBlocks, patchLostWords, readGarbledBlocks } from '../../../src/engine/pdf/ocr/garbled-blocks.js';
import type { OcrLine } from '../../../src/engine/pdf/ocr/ocr-line.js';
import { HYPHEN_MARK } from '../../../src/engine/pdf/paragraphs.js';
import type { ProtoBlock } from '../../../src/engine/pdf/types.js';
import { allBlocks, convertBytes, convertWithPdfjs, mainMarkdown } from './helpers.js';

/** A ToUnicode map giving U+FFFD for every code pdf-lib writes with a standard font (WinAnsi, 0x20–0x7E). */
function garblingMap(): string {
  const codes = Array.from({ length: 0x7f - 0x20 }, (_, i) => (i + 0x20).toString(16).toUpperCase());
  return [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Garbled def',
    '1 begincodespacerange <00> <FF> endcodespacerange',
    `${codes.length} beginbfchar ${codes.map((code) => `<${code}> <FFFD>`).join(' ')} endbfchar`,
    'endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
}

async function garble(pdf: PDFDocument, font: PDFFont): Promise<void> {
  await font.embed();
  const dictionary = pdf.context.lookup(font.ref);
  if (!dictionary || !('set' in dictionary)) throw new Error('the font has no dictionary');
  (dictionary as { set(key: PDFName, value: unknown): void }).set(PDFName.of('ToUnicode'), pdf.context.register(pdf.context.stream(garblingMap())));
}

const BODY = [
  'The survey counted every vessel that entered the harbour during the spring season, and',
  'the figures below compare them with the counts of the two seasons before. Most of the',
  'traffic was made of small fishing boats, while cargo ships came less often than before.',
];
const GARBLED_PARAGRAPH = ['Counts were taken from the pier at dawn and at dusk on every week-', 'day, and from the lighthouse on the two days of the weekend.'];

/** A report page: a title and a heading in a garbled bold font, a paragraph in a garbled regular one, the rest readable. */
async function reportWithGarbledFonts(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const [body, headings, garbledBody] = await Promise.all([
    pdf.embedFont(StandardFonts.TimesRoman),
    pdf.embedFont(StandardFonts.HelveticaBold),
    pdf.embedFont(StandardFonts.Helvetica),
  ]);
  const page = pdf.addPage([595, 842]);
  let y = 780;
  const write = (lines: readonly string[], size: number, font: PDFFont, after: number) => {
    for (const line of lines) {
      page.drawText(line, { x: 60, y, size, font });
      y -= size * 1.35;
    }
    y -= after;
  };
  write(['Harbour Survey Results'], 20, headings, 16);
  write(BODY, 11, body, 16);
  write(['Methods of Counting'], 15, headings, 10);
  write(GARBLED_PARAGRAPH, 11, garbledBody, 10);
  write(BODY, 11, body, 0);
  await garble(pdf, headings);
  await garble(pdf, garbledBody);
  return pdf.save();
}

describe('text the PDF maps to nothing readable', () => {
  it('mode auto reads those blocks again by OCR: the title and the heading keep their levels, the paragraph its place', async () => {
    const model = await convertBytes(await reportWithGarbledFonts(), { mode: 'auto' });
    const markdown = mainMarkdown(model);
    expect(markdown).not.toContain('\ufffd');
    expect(markdown).toMatch(/^# Harbour Survey Results$/m);
    expect(markdown).toMatch(/^## Methods of Counting$/m);
    expect(markdown).toMatch(/Counts were taken from the pier at dawn and at dusk on every weekday, and from the lighthouse on the two days of the weekend\./);
    // In reading order: the paragraph read again between the heading and the readable text after it.
    expect(markdown.indexOf('Methods of Counting')).toBeLessThan(markdown.indexOf('Counts were taken'));
    expect(markdown.indexOf('Counts were taken')).toBeLessThan(markdown.lastIndexOf('The survey counted'));
    const reread = allBlocks(model).filter((block) => block.source === 'layout_ocr');
    expect(reread.map((block) => block.type)).toEqual(['title', 'section_header', 'text']);
    expect(model.warnings ?? []).toEqual([]);
  });

  it('on the built-in pdfjs path as well', async () => {
    const markdown = mainMarkdown(await convertWithPdfjs(await reportWithGarbledFonts(), { mode: 'auto' }));
    expect(markdown).toMatch(/^## Methods of Counting$/m);
    expect(markdown).not.toContain('\ufffd');
  });

  it('mode fast keeps the text layer as it is: U+FFFD, never a guess, and says which pages hold it', async () => {
    const model = await convertBytes(await reportWithGarbledFonts(), { mode: 'fast' });
    expect(model.warnings).toContainEqual(expect.stringMatching(/^Page\(s\) 1: some text is set in fonts that map their glyphs to nothing readable \(U\+FFFD\); mode auto reads it again by OCR\.$/));
    const markdown = mainMarkdown(model);
    expect(markdown).toContain('\ufffd');
    expect(markdown).not.toContain('Harbour Survey Results');
    expect(markdown).toContain(BODY[0]);
  });
});

/** A line of symbols (ZapfDingbats) whose font maps them to U+FFFD over a readable paragraph: nothing OCR can read as text. */
async function symbolsWithGarbledFont(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const [body, symbols] = await Promise.all([pdf.embedFont(StandardFonts.TimesRoman), pdf.embedFont(StandardFonts.ZapfDingbats)]);
  const page = pdf.addPage([595, 842]);
  page.drawText('\u2701\u2702\u2703\u2704\u2706\u2707 \u2708\u2709\u270c\u270d\u270e', { x: 60, y: 780, size: 20, font: symbols });
  BODY.forEach((line, i) => page.drawText(line, { x: 60, y: 740 - 15 * i, size: 11, font: body }));
  await garble(pdf, symbols);
  return pdf.save();
}

/** A page set wholly in fonts whose maps give U+FFFD: a bold heading at the body's size between paragraphs. */
async function pageAllGarbled(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const [body, bold] = await Promise.all([pdf.embedFont(StandardFonts.TimesRoman), pdf.embedFont(StandardFonts.HelveticaBold)]);
  const page = pdf.addPage([595, 842]);
  let y = 780;
  for (const line of BODY) {
    page.drawText(line, { x: 60, y, size: 11, font: body });
    y -= 15;
  }
  y -= 14;
  page.drawText('Figure 2: Vessels counted in each season', { x: 60, y, size: 9, font: body });
  y -= 24;
  page.drawText('IMPLEMENTATION', { x: 60, y, size: 11, font: bold });
  y -= 24;
  for (const line of BODY) {
    page.drawText(line, { x: 60, y, size: 11, font: body });
    y -= 15;
  }
  await garble(pdf, body);
  await garble(pdf, bold);
  return pdf.save();
}

describe('a page whose text is all garbled', () => {
  it('mode auto reads it block by block, its layout the text layer’s: a bold heading at the body’s size stays a heading', async () => {
    const model = await convertBytes(await pageAllGarbled(), { mode: 'auto' });
    const markdown = mainMarkdown(model);
    expect(markdown).not.toContain('\ufffd');
    expect(markdown).toMatch(/^#+ IMPLEMENTATION$/m);
    expect(allBlocks(model).find((block) => block.markdown.startsWith('Figure 2'))).toMatchObject({ type: 'caption', markdown: 'Figure 2: Vessels counted in each season' });
    expect(markdown.split('\n\n').filter((paragraph) => paragraph.startsWith('The survey counted every vessel'))).toHaveLength(2);
  });
});

/** A readable paragraph with a word, and a letter of another, set in a font whose map gives U+FFFD. */
async function fewLostWords(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const [body, garbled] = await Promise.all([pdf.embedFont(StandardFonts.TimesRoman), pdf.embedFont(StandardFonts.Helvetica)]);
  const page = pdf.addPage([595, 842]);
  const size = 11;
  const lines = [
    ['Our nearest astronomical neighbour is the satellite of the Earth, commonly called the ', 'Moon', '. It is about'],
    ['a quarter of the size of the Earth, and it takes a signi', 'f', 'icant time, a month, to go round it.'],
  ];
  lines.forEach(([before, word, after], i) => {
    const y = 740 - 15 * i;
    page.drawText(before!, { x: 60, y, size, font: body });
    if (!word) return;
    const x = 60 + body.widthOfTextAtSize(before!, size);
    page.drawText(word, { x, y, size, font: garbled });
    page.drawText(after!, { x: x + garbled.widthOfTextAtSize(word, size), y, size, font: body });
  });
  for (const [i, line] of BODY.entries()) page.drawText(line, { x: 60, y: 690 - 15 * i, size, font: body });
  await garble(pdf, garbled);
  return pdf.save();
}

describe('a few lost words among readable ones', () => {
  it('mode auto replaces only those words by what OCR reads in their place; the rest stays the text layer’s', async () => {
    const model = await convertBytes(await fewLostWords(), { mode: 'auto' });
    const markdown = mainMarkdown(model);
    expect(markdown).toContain('commonly called the Moon. It is about a quarter of the size of the Earth, and it takes a significant time');
    expect(markdown).not.toContain('\ufffd');
    expect(model.warnings ?? []).toEqual([]);
    // Mode fast leaves them, and says so.
    const fast = await convertBytes(await fewLostWords(), { mode: 'fast' });
    expect(mainMarkdown(fast)).toContain('commonly called the \ufffd');
    expect(fast.warnings).toContainEqual(expect.stringMatching(/^Page\(s\) 1: some text is set in fonts that map their glyphs to nothing readable/));
  });

  it('the words around a lost run must agree in both readings, and OCR must be sure of what replaces it', () => {
    const sure = (text: string) => ({ text, confidence: 0.95 });
    expect(patchLostWords('commonly called the \ufffd\ufffd\ufffd\ufffd. Figure 2 shows', ['commonly', 'called', 'the', 'Moon.', 'Figure', '2', 'shows'].map(sure))).toEqual([
      { from: ['\ufffd\ufffd\ufffd\ufffd.'], to: ['Moon.'] },
    ]);
    // The word after the run reads otherwise in OCR's reading: nothing anchors the run there.
    expect(patchLostWords('called the \ufffd\ufffd\ufffd\ufffd Figure', ['called', 'the', 'Moon', 'Fiqure'].map(sure))).toBeUndefined();
    // OCR unsure of the word it reads in the run's place.
    expect(patchLostWords('Investments r\ufffd\ufffd and', [sure('Investments'), { text: 'r;¢?', confidence: 0.41 }, sure('and')])).toBeUndefined();
    // A word whose ligature was lost.
    expect(patchLostWords('a signi\ufffdcant rise', ['a', 'significant', 'rise'].map(sure))).toEqual([{ from: ['signi\ufffdcant'], to: ['significant'] }]);
    // A running head's page number whose digits were lost, at the block's start.
    expect(patchLostWords('3\ufffd\ufffd Yarrow', ['322', 'Yarrow'].map(sure))).toEqual([{ from: ['3\ufffd\ufffd'], to: ['322'] }]);
  });
});

describe('text OCR cannot read either', () => {
  it('mode auto leaves it as the text layer has it and says which pages hold it', async () => {
    const model = await convertBytes(await symbolsWithGarbledFont(), { mode: 'auto' });
    expect(mainMarkdown(model)).toContain('\ufffd');
    expect(mainMarkdown(model)).toContain(BODY[0]);
    expect(model.warnings).toContainEqual(expect.stringMatching(/^Page\(s\) 1: some text is set in fonts that map their glyphs to nothing readable \(U\+FFFD\), and OCR could not read it either\.$/));
  });
});

function block(text: string, kind: ProtoBlock['kind'] = 'paragraph'): ProtoBlock {
  return { kind, text, markdown: text, rect: { x0: 60, y0: 100, x1: 300, y1: 115 }, lines: 1, size: 12, bold: false, chars: text.replace(/\s/g, '').length };
}

function line(words: readonly string[], confidence: number): OcrLine {
  return {
    words: words.map((text, i) => ({ text, x0: i * 50, y0: 0, x1: i * 50 + 40, y1: 20, confidence })),
    baseline: { x0: 0, y0: 18, x1: 200, y1: 18 },
    rowHeight: 20,
    rtl: false,
  };
}

describe('which blocks are read again', () => {
  it('a block mostly unreadable is, and one with lost glyphs among readable words; a lone private-use bullet, a table, tabs and line breaks are not', () => {
    const blocks = [
      block('\ufffd\ufffd\ufffd\ufffd \ufffd\ufffd\ufffd'),
      block('\uf0b7 Every vessel was counted'),
      block('The harbour holds 40 \ufffd of the traffic'),
      block('| \ufffd\ufffd\ufffd | \ufffd\ufffd |', 'table'),
      block('Region\tStores\nNorth\t12\nSouth\t9'),
      block('commonly called the \ufffd\ufffd\ufffd\ufffd. Figure 2 shows'),
    ];
    // The first mostly unreadable; the third and the last lost glyphs among readable words (one is enough: a ligature
    // the font's map left out); a text's tabs and line breaks are not lost glyphs.
    expect(garbledBlocks(blocks)).toEqual([0, 2, 5]);
  });

  it('a reading OCR is unsure of leaves the block as it was; a sure one replaces its text, a line broken at a hyphen joined', async () => {
    const blocks = [block('\ufffd\ufffd\ufffd\ufffd\ufffd'), block('\ufffd\ufffd\ufffd \ufffd\ufffd\ufffd')];
    const readings: OcrLine[][] = [[line(['ee', 'Tee', 'a'], 0.4)], [line(['Counts', 'were', 'care-'], 0.93), { ...line(['fully', 'taken'], 0.95), baseline: { x0: 0, y0: 40, x1: 200, y1: 40 } }]];
    const out = await readGarbledBlocks(blocks, 595, 842, async (regions) => {
      expect(regions).toHaveLength(2);
      // Type of 12 points rendered about 36 pixels high.
      expect(regions[0]!.dpi).toBe(216);
      return readings;
    });
    expect(out?.[0]).toBe(blocks[0]);
    // The hyphen marked as the page layout marks one: the document's words decide it (resolveHyphens).
    expect(out?.[1]).toMatchObject({ text: `Counts were care${HYPHEN_MARK}fully taken`, readAgain: true });
  });
});
