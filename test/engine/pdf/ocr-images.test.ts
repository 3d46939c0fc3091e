/**
 * OCR of images on pages that have a text layer (mode auto): a scan whose text layer is only a stamped page
 * number is read whole; a scanned figure in a text page is read as layout_ocr blocks in reading order, its text
 * layer kept; a logo or a background image under real text is never rendered; a picture with no text adds no
 * blocks.
 */
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelBlock } from '../../../src/engine/model.js';
import { isContinuousTone, judgeRegion, looksLikeText, planImageOcr, textBands } from '../../../src/engine/pdf/ocr/image-regions.js';
import { layoutOcrPage, layoutOcrRegion, linesWithSureWords } from '../../../src/engine/pdf/ocr/ocr-layout.js';
import { PageOcr } from '../../../src/engine/pdf/ocr/page-ocr.js';
import type { OcrLine } from '../../../src/engine/pdf/ocr/tesseract.js';
import { PageRenderer } from '../../../src/engine/pdf/ocr/render-page.js';
import { terminateOcrWorkers } from '../../../src/engine/pdf/ocr/tesseract.js';
import type { PdfTextItem } from '../../../src/engine/pdf/types.js';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';
import { formAndInlineImagePdf, gradient, mixedPdf, pictureOfText, solid } from './image-pdfs.js';

afterAll(() => terminateOcrWorkers());
afterEach(() => vi.restoreAllMocks());

const BODY = [
  { x: 72, y: 700, text: 'The committee approved the annual budget.', size: 18 },
  { x: 72, y: 660, text: 'Members reviewed the maintenance schedule.', size: 18 },
];

/** A letter page scanned (a picture of BODY filling the page) with "Page 7" stamped as text in the corner. */
async function stampedScan(): Promise<Uint8Array> {
  const scan = await pictureOfText(BODY, 612, 792, 150);
  return mixedPdf([{ text: [{ x: 520, y: 30, text: 'Page 7', size: 10 }], images: [{ bitmap: scan, x: 0, y: 0, width: 612, height: 792 }] }]);
}

/** Normalised bbox of a rectangle given in PDF points (origin bottom-left) on a letter page. */
function normalised(x: number, y: number, width: number, height: number): [number, number, number, number] {
  return [x / 612, (792 - y - height) / 792, (x + width) / 612, (792 - y) / 792];
}

function inside(bbox: ModelBlock['bbox'], area: [number, number, number, number], slack = 0.01): boolean {
  return (
    !!bbox && bbox[0] >= area[0] - slack && bbox[1] >= area[1] - slack && bbox[2] <= area[2] + slack && bbox[3] <= area[3] + slack
  );
}

describe('PDF OCR of images on pages with a text layer', () => {
  it('reads a scan whose text layer is only a stamped page number under auto, and not under fast', async () => {
    const pdf = await stampedScan();
    const auto = await convertBytes(pdf, { mode: 'auto' });
    expect(mainMarkdown(auto) + allBlocks(auto).map((b) => b.markdown).join(' ')).toMatch(
      /committee approved the annual budget[\s\S]*maintenance schedule/,
    );
    expect(allBlocks(auto).every((block) => block.source === 'full_page')).toBe(true);
    // Mode fast keeps the text layer it found: the stamp, and no error since the page has text.
    const fast = await convertBytes(pdf, { mode: 'fast' });
    expect(allBlocks(fast).map((block) => block.markdown).join(' ')).toBe('Page 7');
    expect(allBlocks(fast).every((block) => block.source === 'native_text')).toBe(true);
  });

  it('keeps the text layer of a text page and reads its scanned figure as layout_ocr blocks in reading order', async () => {
    const figure = await pictureOfText([{ x: 12, y: 50, text: 'Revenue grew by twelve percent', size: 20 }], 360, 90);
    const pdf = mixedPdf([
      {
        text: [
          { x: 72, y: 720, text: 'The report opens with the figure below.', size: 12 },
          { x: 72, y: 560, text: 'The text after the figure closes the page.', size: 12 },
        ],
        images: [{ bitmap: figure, x: 72, y: 600, width: 360, height: 90 }],
      },
    ]);
    const spy = vi.spyOn(PageRenderer, 'open');
    const auto = await convertBytes(pdf, { mode: 'auto' });
    expect(spy).toHaveBeenCalledTimes(1);
    const blocks = allBlocks(auto);
    const sources = blocks.map((block) => block.source);
    expect(sources.filter((source) => source === 'native_text')).toHaveLength(2);
    const ocrBlocks = blocks.filter((block) => block.source === 'layout_ocr');
    expect(ocrBlocks).toHaveLength(1);
    expect(ocrBlocks[0]!.markdown).toMatch(/Revenue grew by twelve percent/);
    expect(inside(ocrBlocks[0]!.bbox, normalised(72, 600, 360, 90))).toBe(true);
    expect(ocrBlocks[0]!.confidence!.ocr).toBeGreaterThan(0.8);
    expect(mainMarkdown(auto)).toMatch(/opens with the figure below\.\n\nRevenue grew by twelve percent\n\nThe text after the figure/);
    // Mode fast reads no image; mode ocr reads the whole page.
    const fast = await convertBytes(pdf, { mode: 'fast' });
    expect(mainMarkdown(fast)).not.toMatch(/Revenue/);
    expect(allBlocks(fast).every((block) => block.source === 'native_text')).toBe(true);
    const ocr = await convertBytes(pdf, { mode: 'ocr' });
    expect(mainMarkdown(ocr)).toMatch(/Revenue grew by twelve percent/);
    expect(allBlocks(ocr).every((block) => block.source === 'full_page')).toBe(true);
  });

  it('reads a figure\'s light text on a dark ground', async () => {
    const figure = await pictureOfText([{ x: 12, y: 50, text: 'Revenue grew by twelve percent', size: 20 }], 360, 90);
    const dark = { ...figure, pixels: figure.pixels.map((value) => 255 - value) };
    const pdf = mixedPdf([
      {
        text: [{ x: 72, y: 720, text: 'The report opens with the figure below.', size: 12 }],
        images: [{ bitmap: dark, x: 72, y: 600, width: 360, height: 90 }],
      },
    ]);
    const auto = await convertBytes(pdf, { mode: 'auto' });
    const ocrBlocks = allBlocks(auto).filter((block) => block.source === 'layout_ocr');
    expect(ocrBlocks.map((block) => block.markdown)).toEqual([expect.stringMatching(/Revenue grew by twelve percent/)]);
  });

  it('finds a picture painted through a form XObject, each time it is painted, and an inline picture', async () => {
    const figure = await pictureOfText([{ x: 12, y: 50, text: 'Revenue grew by twelve percent', size: 20 }], 360, 90, 100);
    const auto = await convertBytes(formAndInlineImagePdf(figure), { mode: 'auto' });
    const ocrBlocks = allBlocks(auto).filter((block) => block.source === 'layout_ocr');
    expect(ocrBlocks.map((block) => block.markdown)).toEqual(Array(3).fill(expect.stringMatching(/Revenue grew by twelve percent/)));
    ocrBlocks.forEach((block, i) => expect(inside(block.bbox, normalised(72, 600 - 200 * i, 360, 90))).toBe(true));
    expect(mainMarkdown(auto)).toMatch(/^The report opens[\s\S]*(Revenue grew[\s\S]*){3}The text after the figures\.$/);
  });

  it('never renders a text page with a logo, or with a page-sized background image under its text', async () => {
    const lines = [
      'Quarterly results were in line with the plan agreed in spring.',
      'Sales in the northern region rose while costs stayed flat.',
      'The board will review the figures again at its next meeting.',
      'Questions about this report go to the finance office.',
    ];
    const text = (order: string[]) => order.map((line, i) => ({ x: 72, y: 640 - 24 * i, text: line, size: 12 }));
    const pdf = mixedPdf([
      { text: text(lines), images: [{ bitmap: solid(64), x: 480, y: 700, width: 60, height: 60 }] },
      { text: text([...lines].reverse()), images: [{ bitmap: gradient(200, 260), x: 0, y: 0, width: 612, height: 792 }] },
    ]);
    const spy = vi.spyOn(PageRenderer, 'open');
    const auto = await convertBytes(pdf, { mode: 'auto' });
    expect(spy).not.toHaveBeenCalled();
    expect(allBlocks(auto).every((block) => block.source === 'native_text' && block.confidence?.ocr === null)).toBe(true);
    expect(mainMarkdown(auto)).toMatch(/Quarterly results[\s\S]*finance office[\s\S]*finance office[\s\S]*Quarterly results/);
  });

  it('adds no blocks for a picture without text, and keeps a short title over a page-sized photo', async () => {
    const pdf = mixedPdf([
      {
        text: [{ x: 72, y: 720, text: 'Site survey notes for the western plot.', size: 12 }],
        images: [{ bitmap: gradient(300, 200), x: 72, y: 300, width: 400, height: 300 }],
      },
      {
        text: [{ x: 72, y: 400, text: 'Annual Report', size: 36 }],
        images: [{ bitmap: gradient(200, 260), x: 0, y: 0, width: 612, height: 792 }],
      },
    ]);
    const render = vi.spyOn(PageRenderer.prototype, 'render');
    const renderRegions = vi.spyOn(PageRenderer.prototype, 'renderRegions');
    const readPage = vi.spyOn(PageOcr.prototype, 'readPage');
    const readRegions = vi.spyOn(PageOcr.prototype, 'readRegions');
    const auto = await convertBytes(pdf, { mode: 'auto' });
    // Both were rendered (the picture region; the cover as a possible scan), and neither looked like text on
    // paper, so neither was recognised...
    expect(renderRegions.mock.calls.map(([page, regions]) => [page, regions.length])).toEqual([[1, 1]]);
    expect(render.mock.calls.map(([page, , region]) => [page, region !== undefined])).toEqual([[2, false]]);
    expect(await readRegions.mock.results[0]!.value).toEqual([]);
    expect(await readPage.mock.results[0]!.value).toBeUndefined();
    // ...and nothing but their text layer came out.
    expect(allBlocks(auto).map((block) => [block.source, block.markdown])).toEqual([
      ['native_text', expect.stringMatching(/Site survey notes for the western plot\./)],
      ['native_text', expect.stringMatching(/Annual Report/)],
    ]);
    expect(auto.warnings).toBeUndefined();
  });
});

/**
 * A photo on a page's white ground: plain paper above, a continuous run of tones below (a landscape's shading,
 * dark ones among them): it passes the ink test, and holds no text.
 */
function photoOnPaper(width: number, height: number): { width: number; height: number; pixels: Uint8Array } {
  const pixels = new Uint8Array(width * height).fill(255);
  for (let y = Math.floor(height * 0.6); y < height; y++) {
    for (let x = 0; x < width; x++) pixels[y * width + x] = Math.round((255 * x) / width + 20 * Math.sin(y / 5)) & 0xff;
  }
  return { width, height, pixels };
}

describe('a photo in a text page under mode auto', () => {
  it('is not read by OCR, where a scan beside it is', async () => {
    const photo = photoOnPaper(400, 300);
    expect(looksLikeText(photo.pixels)).toBe(true);
    const scan = await pictureOfText(BODY, 612, 792, 150);
    const pdf = mixedPdf([
      {
        text: [
          { x: 72, y: 720, text: 'The survey team photographed the western plot.', size: 12 },
          { x: 72, y: 260, text: 'The photograph above shows the plot in spring.', size: 12 },
        ],
        images: [{ bitmap: photo, x: 72, y: 300, width: 400, height: 300 }],
      },
      { text: [], images: [{ bitmap: scan, x: 0, y: 0, width: 612, height: 792 }] },
    ]);
    const readRegions = vi.spyOn(PageOcr.prototype, 'readRegions');
    const auto = await convertBytes(pdf, { mode: 'auto' });
    // The photo's region was planned and judged, and nothing was recognised in it...
    expect(readRegions).toHaveBeenCalledTimes(1);
    expect(await readRegions.mock.results[0]!.value).toEqual([]);
    const [first, second] = auto.pages;
    expect(first!.blocks.map((block) => block.source)).toEqual(['native_text', 'native_text']);
    // ...while the scan, a page with no text layer, was read whole.
    expect(second!.blocks.map((block) => block.markdown).join(' ')).toMatch(/committee approved the annual budget/);
    expect(second!.blocks.every((block) => block.source === 'full_page')).toBe(true);
  });
});

describe('a slide over a page-sized template picture', () => {
  it('is OCR\'d as a possible scan, and keeps its text layer when OCR reads no more than it holds', async () => {
    // A white template with a dark band across the top: a plain background with some ink, like paper.
    const template = new Uint8Array(200 * 260).fill(250);
    template.fill(30, 0, 200 * 20);
    const pdf = mixedPdf([
      {
        text: [{ x: 72, y: 400, text: 'Quarterly Review', size: 36 }],
        images: [{ bitmap: { width: 200, height: 260, pixels: template }, x: 0, y: 0, width: 612, height: 792 }],
      },
    ]);
    const readPage = vi.spyOn(PageOcr.prototype, 'readPage');
    const auto = await convertBytes(pdf, { mode: 'auto' });
    // The OCR reading came back with the title in it...
    const layout = (await readPage.mock.results[0]!.value) as Awaited<ReturnType<PageOcr['readPage']>>;
    expect(layout?.blocks.map((block) => block.text).join(' ')).toMatch(/Quarterly Review/);
    // ...and the text layer stays, exact as drawn.
    expect(allBlocks(auto).map((block) => [block.source, block.markdown])).toEqual([['native_text', expect.stringMatching(/Quarterly Review/)]]);
  });
});

/** A strip of one line of text on paper, 432 pt wide, at 150 DPI (900 pixels); `dark`: light text on a dark ground. */
async function textStrip(text: string, dark = false): Promise<{ width: number; height: number; pixels: Uint8Array }> {
  const strip = await pictureOfText([{ x: 10, y: 12, text, size: 16 }], 432, 40, 150);
  return { width: strip.width, height: strip.height, pixels: dark ? strip.pixels.map((value) => 255 - value) : strip.pixels };
}

/**
 * A screenshot of an app: a line of text on a bar (light, or dark as in a dark theme), a row of photos, a line of
 * light text on a dark bar.
 */
async function screenshot(darkTheme = false): Promise<{ width: number; height: number; pixels: Uint8Array }> {
  const top = await textStrip('Quarterly dashboard overview', darkTheme);
  const bottom = await textStrip('Revenue grew in every region', true);
  const photos = photoOnPaper(top.width, 400);
  const rows = [top, { width: photos.width, height: 160, pixels: photos.pixels.subarray(240 * photos.width) }, bottom];
  const height = rows.reduce((sum, row) => sum + row.height, 0);
  const pixels = new Uint8Array(top.width * height);
  let at = 0;
  for (const row of rows) {
    pixels.set(row.pixels, at);
    at += row.pixels.length;
  }
  return { width: top.width, height, pixels };
}

describe('a screenshot in a text page under mode auto', () => {
  it('finds the bands of text between its photos, on a light ground and on a dark one', async () => {
    const shot = await screenshot();
    // As a whole it is a photo...
    expect(judgeRegion(shot.pixels).read).toBe(false);
    // ...whose first and last rows hold text: the light bar as it is, the dark one to be read inverted.
    const bands = textBands(shot.pixels, shot.width, shot.height);
    expect(bands.map((band) => band.dark)).toEqual([false, true]);
    // The light bar is rows 0 to 83, the photos 83 to 243, the dark bar 243 to the end.
    expect(bands[0]!.top).toBeLessThan(40);
    expect(bands[0]!.bottom).toBeLessThan(83 + 40);
    expect(bands[1]!.top).toBeGreaterThan(83 + 120);
    expect(bands[1]!.bottom).toBeGreaterThan(shot.height - 40);
    expect(textBands(photoOnPaper(400, 300).pixels.subarray(180 * 400), 400, 120)).toEqual([]);
    // A pale picture continuous-tone throughout, no band of it a photo: not a screenshot, none read.
    const pale = Uint8Array.from({ length: 900 * 240 }, (_, i) => 200 + ((i * 7919) % 97) / 2);
    pale.set(shot.pixels.subarray(0, 900 * 83));
    expect(textBands(pale, 900, 240)).toEqual([]);
  });

  it('reads those lines into the page, and nothing of the photos', async () => {
    // Dark throughout but for its photos: as a whole, text on a plain ground that is also a photo.
    const shot = await screenshot(true);
    expect(judgeRegion(shot.pixels)).toEqual({ read: false, invert: false, plain: true });
    const pdf = mixedPdf([
      {
        text: [
          { x: 72, y: 720, text: 'The team shared a screenshot of the tool.', size: 12 },
          { x: 72, y: 300, text: 'The screenshot above shows the first view.', size: 12 },
        ],
        images: [{ bitmap: shot, x: 72, y: 340, width: 432, height: (shot.height * 72) / 150 }],
      },
    ]);
    const auto = await convertBytes(pdf, { mode: 'auto' });
    const read = auto.pages[0]!.blocks.filter((block) => block.source === 'layout_ocr').map((block) => block.markdown);
    expect(read).toEqual(['Quarterly dashboard overview', 'Revenue grew in every region']);
    expect(mainMarkdown(auto)).toMatch(/tool\.\n\nQuarterly dashboard overview\n\nRevenue grew in every region\n\nThe screenshot above/);
    const fast = await convertBytes(pdf, { mode: 'fast' });
    expect(allBlocks(fast).every((block) => block.source !== 'layout_ocr')).toBe(true);
  });

  it('reads the text of a dark-themed web page screenshot on a benchmark page, between its video thumbnails', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/pdf-bench/structure-01030000000072.pdf', import.meta.url)));
    const auto = await convertBytes(bytes, { mode: 'auto' });
    const read = auto.pages[0]!.blocks.filter((block) => block.source === 'layout_ocr').map((block) => block.markdown).join('\n');
    expect(read).toMatch(/Komnas HAM/);
    expect(read).toMatch(/PLAY ALL/);
    expect(read).toMatch(/Podcast .*Festival/);
    expect(read).toMatch(/Semarang/);
    // Read where the screenshot is: after the paragraph above it, before its caption.
    expect(mainMarkdown(auto)).toMatch(/young generations\.\n\nKomnas HAM\n[\s\S]*Semarang\n\nFigure 4/);
  });

  it('keeps only the lines holding a word tesseract is sure of, where a band crosses a photo\'s edge', () => {
    const lines = [
      ocrLine(100, [['Uploads:', 0.63], ['PLAY', 0.95], ['ALL', 0.96]]),
      ocrLine(200, [['(Px', 0.68], ['4', 0.31]]),
      ocrLine(300, [['A', 0.64], ['"x', 0.62], ['a', 0.35]]),
      ocrLine(400, [['att', 0.6], ['ae', 0.31]]),
    ];
    expect(linesWithSureWords(lines).map((line) => line.words.map((word) => word.text).join(' '))).toEqual(['Uploads: PLAY ALL']);
  });
});

describe("mode auto's image plan", () => {
  const item = (x: number, baseline: number, str: string): PdfTextItem => ({
    str,
    x0: x,
    x1: x + 6 * str.length,
    baseline,
    size: 10,
    fontName: 'f',
    bold: false,
    monospace: false,
    rtl: false,
  });
  const page = { x0: 0, y0: 0, x1: 612, y1: 792 };

  it('calls a page-sized image with a stamp over it a scan, and one under a page of text not', () => {
    expect(planImageOcr([page], [item(520, 770, 'Page 7')], 612, 792)).toEqual({ fullPage: true, regions: [] });
    // Two strips that cover the page together count as one scan.
    const strips = [{ ...page, y1: 400 }, { ...page, y0: 400 }];
    expect(planImageOcr(strips, [item(520, 770, 'Page 7')], 612, 792).fullPage).toBe(true);
    const body = Array.from({ length: 30 }, (_, i) => item(72, 100 + 20 * i, 'a line of body text of the page'));
    expect(planImageOcr([page], body, 612, 792)).toEqual({ fullPage: false, regions: [] });
  });

  it('reads two charts covering most of a page above a paragraph as regions, not the page as a scan', () => {
    const charts = [
      { x0: 60, y0: 40, x1: 540, y1: 330 },
      { x0: 60, y0: 340, x1: 540, y1: 630 },
    ];
    const paragraph = Array.from({ length: 8 }, (_, i) => item(72, 650 + 14 * i, 'a line of the paragraph under the two charts'));
    expect(planImageOcr(charts, paragraph, 612, 792)).toEqual({ fullPage: false, regions: charts });
  });

  it('takes image regions with no text over them, large enough, the largest four, touching images joined', () => {
    const text = [item(72, 80, 'Heading of the page')];
    const logo = { x0: 500, y0: 20, x1: 560, y1: 80 };
    const banner = { x0: 72, y0: 100, x1: 540, y1: 120 };
    const captioned = { x0: 72, y0: 60, x1: 300, y1: 90 };
    const halves = [
      { x0: 72, y0: 200, x1: 300, y1: 300 },
      { x0: 300, y0: 200, x1: 540, y1: 300 },
    ];
    const small = [0, 1, 2, 3, 4].map((i) => ({ x0: 72, y0: 400 + 70 * i, x1: 172 + 10 * i, y1: 460 + 70 * i }));
    const plan = planImageOcr([logo, banner, captioned, ...halves, ...small], text, 612, 792);
    expect(plan.fullPage).toBe(false);
    // The logo is too small, the banner too low, the captioned image has text over it; the halves are one region.
    expect(plan.regions[0]).toEqual({ x0: 72, y0: 200, x1: 540, y1: 300 });
    expect(plan.regions).toHaveLength(4);
    expect(plan.regions.slice(1).map((rect) => rect.x1)).toEqual([212, 202, 192]);
  });
});

describe('the ink test of a render', () => {
  it('takes text on paper, and not a photo-like gradient, a blank or an all-ink picture', async () => {
    const text = await pictureOfText(BODY, 612, 792, 150);
    expect(looksLikeText(text.pixels)).toBe(true);
    // Light text on a dark plain background is text too.
    expect(looksLikeText(text.pixels.map((value) => 255 - value))).toBe(true);
    expect(looksLikeText(gradient(300, 200).pixels)).toBe(false);
    expect(looksLikeText(new Uint8Array(10_000).fill(255))).toBe(false);
    expect(looksLikeText(solid(100).pixels)).toBe(false);
  });

  it('tells a continuous-tone picture (a photo) from text and flat drawing', async () => {
    const text = await pictureOfText(BODY, 612, 792, 150);
    expect(isContinuousTone(text.pixels)).toBe(false);
    expect(isContinuousTone(solid(100).pixels)).toBe(false);
    expect(isContinuousTone(photoOnPaper(400, 300).pixels)).toBe(true);
  });

  it('reads an image region of text, inverted too only on dark fills, and leaves a photo, a blank or all ink unread', async () => {
    const text = await pictureOfText(BODY, 612, 792, 150);
    expect(judgeRegion(text.pixels)).toEqual({ read: true, invert: false, plain: true });
    expect(judgeRegion(text.pixels.map((value) => 255 - value))).toEqual({ read: true, invert: true, plain: true });
    expect(judgeRegion(photoOnPaper(400, 300).pixels).read).toBe(false);
    expect(judgeRegion(gradient(300, 200).pixels).read).toBe(false);
    expect(judgeRegion(new Uint8Array(10_000).fill(255)).read).toBe(false);
    expect(judgeRegion(solid(100).pixels).read).toBe(false);
  });
});

/** An OCR line of words 100 px apart at `y` (bitmap pixels), each with its confidence. */
function ocrLine(y: number, words: [string, number][]): OcrLine {
  return {
    words: words.map(([text, confidence], i) => ({ text, confidence, x0: 100 * i, x1: 100 * i + 80, y0: y - 40, y1: y })),
    baseline: { x0: 0, y0: y, x1: 100 * words.length, y1: y },
    rowHeight: 50,
    rtl: false,
  };
}

describe('OCR lines of a whole page', () => {
  const text = (layout: ReturnType<typeof layoutOcrPage>) => layout?.blocks.map((block) => block.text).join(' ') ?? null;

  it('keeps the lines of text, unsure words in them included, and drops the lines read from a picture', () => {
    const scale = 300 / 72;
    const layout = layoutOcrPage(
      [
        ocrLine(100, [['Quarterly', 0.95], ['results', 0.55], ['improved', 0.93]]),
        // A photo's texture read as marks and stray letters: unsure on average.
        ocrLine(400, [['ee', 0.47], ['Tee', 0.46], ['a', 0.34], ['|', 0.2]]),
        ocrLine(700, [['Sales', 0.94], ['|', 0.3], ['rose', 0.91], ['—', 0.9]]),
      ],
      scale,
      612,
      792,
    );
    expect(text(layout)).toBe('Quarterly results improved Sales rose —');
  });

  it('is empty when every line is unsure', () => {
    expect(layoutOcrPage([ocrLine(100, [['h,', 0.38], ['Js', 0.3]])], 300 / 72, 612, 792)).toBeNull();
  });
});

describe('OCR words of an image region', () => {

  it('keeps sure words with a letter or digit, in page coordinates, and drops marks and unsure words', () => {
    // 300 DPI: 300/72 pixels per point; the region's corner is at (72, 200) pt.
    const scale = 300 / 72;
    const blocks = layoutOcrRegion(
      [ocrLine(100, [['Revenue', 0.95], ['~~', 0.9], ['grew', 0.92]]), ocrLine(300, [['xq', 0.3], ['|', 0.2]])],
      scale,
      { x: 72, y: 200 },
      612,
      792,
    );
    expect(blocks.map((block) => [block.text, block.source])).toEqual([['Revenue grew', 'layout_ocr']]);
    expect(blocks[0]!.rect.x0).toBeCloseTo(72, 0);
    expect(blocks[0]!.rect.y1).toBeGreaterThan(200);
    expect(blocks[0]!.rect.y1).toBeLessThan(200 + 120 / scale);
    expect(blocks[0]!.ocrConfidence).toBeGreaterThan(0.9);
  });
});
