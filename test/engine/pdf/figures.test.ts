/**
 * `--images` on a PDF (the result keeping pictures, `removeBase64Images` false): the raster images a page draws and
 * the figures it draws with vector paths become files named by page and order, linked at their place in the
 * reading order with their caption as alt text; a logo on every page is one file; a dot under 16 pixels and the
 * contract's default add nothing; an image bomb fails the document naming it, decoding nothing.
 */
import { deflateSync, inflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { liftDataImages } from '../../../src/backend/embedded-images.js';
import type { PictureRendering } from '../../../src/backend/parse-backend.js';
import type { ParseData } from '../../../src/contract/response.js';
import { validateParseOptions } from '../../../src/contract/validation.js';
import { parseDocument } from '../../../src/engine/engine.js';
import { figureRegions } from '../../../src/engine/pdf/figures/figure-regions.js';
import { imageDictionary, plainChannels, softMaskSamples } from '../../../src/engine/pdf/figures/image-dictionary.js';
import { placeImages, type PlacedImages } from '../../../src/pipeline/images/place-images.js';
import { assetReference } from '../../../src/store/layout.js';
import {
  BAR_RGB,
  bitMaskAlpha,
  figuresPdf,
  imageBombPdf,
  jpegBlockColour,
  jpegSoftMaskPdf,
  LOGO_SIDE,
  maskAlpha,
  MASKED,
  OPAQUE_JPEG_BLUE,
  PHOTO,
  photoPixels,
  softMaskPdf,
  streamsPdf,
  subPredicted,
} from './figure-pdfs.js';

function options(input: Record<string, unknown>) {
  const validation = validateParseOptions({ parsers: [{ type: 'pdf', blocks: true }], ...input });
  if (!validation.ok) throw new Error('invalid options');
  return validation.options;
}

async function placed(fileName: string, bytes: Uint8Array, pictures?: PictureRendering, input: Record<string, unknown> = {}): Promise<PlacedImages> {
  const data = await parseDocument({ bytes, fileName, options: options({ removeBase64Images: false, ...input }), ...(pictures ? { pictures } : {}) });
  const lifted = liftDataImages(data);
  return placeImages(lifted.data, lifted.images, { file: fileName, linkOf: (name) => assetReference(fileName, name) });
}

/** The image data of a PNG: its IDAT chunks' bytes, joined. */
function pngData(bytes: Uint8Array): Buffer {
  const buffer = Buffer.from(bytes);
  const data: Buffer[] = [];
  for (let at = 8; at < buffer.length; ) {
    const length = buffer.readUInt32BE(at);
    if (buffer.toString('latin1', at + 4, at + 8) === 'IDAT') data.push(buffer.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return Buffer.concat(data);
}

/** A PNG as docmill writes it (8-bit, not interlaced, any row filter): size, channels and pixels. */
function decodePng(bytes: Uint8Array): { width: number; height: number; channels: number; pixels: Uint8Array } {
  const buffer = Buffer.from(bytes);
  const width = buffer.readUInt32BE(16);
  const height = buffer.readUInt32BE(20);
  const channels = { 0: 1, 2: 3, 6: 4 }[buffer[25] as 0 | 2 | 6];
  const raw = inflateSync(pngData(bytes));
  const rowBytes = width * channels;
  const pixels = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (rowBytes + 1)]!;
    expect(filter).toBeLessThanOrEqual(4);
    for (let i = 0; i < rowBytes; i++) {
      const left = i >= channels ? pixels[y * rowBytes + i - channels]! : 0;
      const up = y > 0 ? pixels[(y - 1) * rowBytes + i]! : 0;
      const upLeft = y > 0 && i >= channels ? pixels[(y - 1) * rowBytes + i - channels]! : 0;
      const estimate = left + up - upLeft;
      const [pa, pb, pc] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
      const paeth = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      const predictor = [0, left, up, (left + up) >> 1, paeth][filter]!;
      pixels[y * rowBytes + i] = (raw[y * (rowBytes + 1) + 1 + i]! + predictor) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** The figure blocks, with the fields a figure adds to a block: its picture and caption. */
function figureItems(data: ParseData) {
  return (data.blocks ?? []).flatMap((page) =>
    page.items
      .filter((item) => item.type === 'figure')
      .map((item) => ({ page: page.pageNumber, ...(item as typeof item & { image?: string; caption?: string }) })),
  );
}

describe('a PDF with a photo, a repeated logo and a vector chart', () => {
  let result: PlacedImages;
  beforeAll(async () => {
    result = await placed('report.pdf', figuresPdf());
  }, 60_000);

  it('writes each picture once, named by its page and order there; the 10-pixel dot is left out', () => {
    expect(result.assets.map((asset) => asset.name)).toEqual(['p1-figure-1.png', 'p1-figure-2.png', 'p2-figure-2.png']);
  });

  it('keeps the same pictures when the file was cut short before its cross-reference table (read repaired)', async () => {
    const bytes = figuresPdf();
    const cut = await placed('report.pdf', bytes.subarray(0, Buffer.from(bytes).lastIndexOf('\nxref') + 1));
    expect(cut.data.warning).toMatch(/^The PDF is damaged/);
    expect(cut.assets.map((asset) => [asset.name, Buffer.from(asset.bytes).toString('base64')])).toEqual(
      result.assets.map((asset) => [asset.name, Buffer.from(asset.bytes).toString('base64')]),
    );
  });

  it('writes the photo with the pixels the PDF gives it, and the logo at its size', () => {
    const photo = decodePng(result.assets.find((asset) => asset.name === 'p1-figure-2.png')!.bytes);
    expect(photo).toMatchObject({ ...PHOTO, channels: 3 });
    expect(Buffer.from(photo.pixels).equals(Buffer.from(photoPixels()))).toBe(true);
    const logo = decodePng(result.assets.find((asset) => asset.name === 'p1-figure-1.png')!.bytes);
    expect(logo).toMatchObject({ width: LOGO_SIDE, height: LOGO_SIDE, channels: 1 });
  });

  it('renders the chart cropped to its bars and labels at 150 DPI', () => {
    const chart = decodePng(result.assets.find((asset) => asset.name === 'p2-figure-2.png')!.bytes);
    const figure = figureItems(result.data).find((item) => item.image === 'report.pdf.assets/p2-figure-2.png')!;
    const [x0, , x1, y1] = figure.bbox!;
    // The y axis's labels start at x 80 pt and the category labels go down to y 404 pt (of 612 × 792).
    expect(x0 * 612).toBeLessThanOrEqual(80.5);
    expect(y1 * 792).toBeGreaterThanOrEqual(403);
    // Nor more than the chart: the caption below it (its top at about 352 pt from the top... 432 from the bottom) stays out.
    expect(y1 * 792).toBeLessThan(425);
    expect(chart.width).toBeGreaterThanOrEqual(Math.floor(((x1 - x0) * 612 * 150) / 72));
    expect(chart.width).toBeLessThan(((x1 - x0) * 612 + 10) * (150 / 72));
    let bars = 0;
    for (let at = 0; at < chart.pixels.length; at += chart.channels) {
      if (chart.pixels[at] === BAR_RGB[0] && chart.pixels[at + 1] === BAR_RGB[1] && chart.pixels[at + 2] === BAR_RGB[2]) bars++;
    }
    // Four bars of 50 pt by 80 to 150 pt: 20,500 pt² at (150/72)² pixels each, edges aside.
    expect(bars).toBeGreaterThan(0.9 * 20_500 * (150 / 72) ** 2);
  });

  it('links each picture at its place in the reading order, its caption as alt text, the logo twice to one file', () => {
    const markdown = result.data.markdown ?? '';
    expect(markdown).not.toContain('data:');
    const links = [...markdown.matchAll(/!\[([^\]]*)\]\(([^)]+)\)/g)].map((match) => [match[1], match[2]]);
    expect(links).toEqual([
      ['', 'report.pdf.assets/p1-figure-1.png'],
      ['Figure 1: Team photo', 'report.pdf.assets/p1-figure-2.png'],
      ['', 'report.pdf.assets/p1-figure-1.png'],
      ['Figure 2: Revenue by region', 'report.pdf.assets/p2-figure-2.png'],
    ]);
    const at = (text: string) => markdown.indexOf(text);
    expect(at('report.pdf.assets/p1-figure-2.png')).toBeGreaterThan(at('Revenue grew'));
    expect(at('report.pdf.assets/p1-figure-2.png')).toBeLessThan(at('\nFigure 1: Team photo'));
    expect(at('report.pdf.assets/p2-figure-2.png')).toBeGreaterThan(at('Each region'));
    expect(at('report.pdf.assets/p2-figure-2.png')).toBeLessThan(at('North South East West'));
  });

  it('gives figure blocks their page, box, caption and picture; block spans still slice the Markdown', () => {
    const figures = figureItems(result.data);
    expect(figures.map((item) => [item.page, item.label, item.caption, item.image])).toEqual([
      [1, 'picture', undefined, 'report.pdf.assets/p1-figure-1.png'],
      [1, 'picture', 'Figure 1: Team photo', 'report.pdf.assets/p1-figure-2.png'],
      [2, 'picture', undefined, 'report.pdf.assets/p1-figure-1.png'],
      [2, 'drawing', 'Figure 2: Revenue by region', 'report.pdf.assets/p2-figure-2.png'],
    ]);
    // The photo is drawn at 72..372 × 450..675 pt from the bottom of a 612 × 792 page.
    expect(figures[1]!.bbox!.map((value) => Math.round(value * 1000))).toEqual([118, 148, 608, 432]);
    const markdown = result.data.markdown ?? '';
    for (const item of result.data.blocks!.flatMap((page) => page.items)) if (item.markdownSpan) expect(markdown.slice(...item.markdownSpan)).toBe(item.content);
  });

  it('adds nothing under the contract default: the text is the same and no picture is made', async () => {
    const plain = await parseDocument({ bytes: figuresPdf(), fileName: 'report.pdf', options: options({}) });
    expect(figureItems(plain)).toEqual([]);
    expect(liftDataImages(plain).images).toEqual([]);
    const withoutLinks = (result.data.markdown ?? '').replace(/!\[[^\]]*\]\([^)]+\)\n\n/g, '');
    expect(withoutLinks).toBe(plain.markdown);
  });
});

/** Pixels of the bars' colour in a decoded PNG. */
function barPixels(picture: ReturnType<typeof decodePng>): number {
  let bars = 0;
  for (let at = 0; at < picture.pixels.length; at += picture.channels) {
    if (picture.pixels[at] === BAR_RGB[0] && picture.pixels[at + 1] === BAR_RGB[1] && picture.pixels[at + 2] === BAR_RGB[2]) bars++;
  }
  return bars;
}

describe('a PDF\'s pictures at another resolution, with each page rendered', () => {
  const DPI = 100;
  let result: PlacedImages;
  beforeAll(async () => {
    result = await placed('report.pdf', figuresPdf(), { dpi: DPI, pages: true }, { parsers: [{ type: 'pdf', pages: true, blocks: true }] });
  }, 60_000);

  it('writes each page whole as page-<n>.png at the resolution asked, beside the figures', () => {
    expect(result.assets.map((asset) => asset.name).sort()).toEqual(['p1-figure-1.png', 'p1-figure-2.png', 'p2-figure-2.png', 'page-1.png', 'page-2.png']);
    for (const name of ['page-1.png', 'page-2.png']) {
      // Letter size, 8.5 × 11 inches.
      expect(decodePng(result.assets.find((asset) => asset.name === name)!.bytes)).toMatchObject({ width: 850, height: 1100, channels: 3 });
    }
    // Page 2 shows the chart's four bars (20,500 pt²); page 1 has none.
    const page2 = decodePng(result.assets.find((asset) => asset.name === 'page-2.png')!.bytes);
    expect(barPixels(page2)).toBeGreaterThan(0.9 * 20_500 * (DPI / 72) ** 2);
    expect(barPixels(decodePng(result.assets.find((asset) => asset.name === 'page-1.png')!.bytes))).toBe(0);
  });

  it('renders the chart at the resolution asked; raster pictures keep their own pixels', () => {
    const chart = decodePng(result.assets.find((asset) => asset.name === 'p2-figure-2.png')!.bytes);
    const figure = figureItems(result.data).find((item) => item.image === 'report.pdf.assets/p2-figure-2.png')!;
    const [x0, , x1] = figure.bbox!;
    expect(chart.width).toBeGreaterThanOrEqual(Math.floor(((x1 - x0) * 612 * DPI) / 72));
    expect(chart.width).toBeLessThan(((x1 - x0) * 612 + 10) * (DPI / 72));
    expect(barPixels(chart)).toBeGreaterThan(0.9 * 20_500 * (DPI / 72) ** 2);
    expect(decodePng(result.assets.find((asset) => asset.name === 'p1-figure-2.png')!.bytes)).toMatchObject(PHOTO);
  });

  it('links each page\'s picture from its entries in pages and blocks, never from the Markdown', () => {
    expect(result.data.pages!.map((page) => page.image)).toEqual(['report.pdf.assets/page-1.png', 'report.pdf.assets/page-2.png']);
    expect(result.data.blocks!.map((page) => page.image)).toEqual(['report.pdf.assets/page-1.png', 'report.pdf.assets/page-2.png']);
    expect(result.data.markdown).not.toContain('page-1.png');
  });
});

describe('a PDF picture with a soft mask, and one stored with PNG predictors', () => {
  let result: PlacedImages;
  let drawn: PlacedImages;
  beforeAll(async () => {
    result = await placed('faded.pdf', softMaskPdf());
    drawn = await placed('faded.pdf', softMaskPdf(true));
  }, 60_000);

  it('writes the masked picture at its own pixel size with its transparency, its colour untouched, read or drawn', () => {
    for (const placedImages of [result, drawn]) {
      expect(placedImages.assets.map((asset) => asset.name)).toEqual(['p1-figure-1.png', 'p1-figure-2.png']);
      const faded = decodePng(placedImages.assets[0]!.bytes);
      expect(faded).toMatchObject({ ...MASKED, channels: 4 });
      const alpha = maskAlpha();
      let worst = 0;
      for (let i = 0; i < alpha.length; i++) {
        expect([faded.pixels[i * 4], faded.pixels[i * 4 + 1], faded.pixels[i * 4 + 2]]).toEqual([220, 20, 20]);
        worst = Math.max(worst, Math.abs(faded.pixels[i * 4 + 3]! - alpha[i]!));
      }
      expect(worst).toBeLessThanOrEqual(1);
    }
  });

  it('finds the plain soft mask in the file, and leaves one with a Decode array to PDFium', () => {
    const red = deflateSync(new Uint8Array(MASKED.width * MASKED.height * 3).map((_, i) => (i % 3 === 0 ? 220 : 20)));
    const plain = imageDictionary(softMaskPdf(), red)!;
    expect(plain).toMatchObject({ masked: true, decodeArray: false });
    expect(Buffer.from(softMaskSamples(softMaskPdf(), plain, MASKED.width, MASKED.height)!).equals(Buffer.from(maskAlpha()))).toBe(true);
    expect(softMaskSamples(softMaskPdf(), plain, MASKED.width + 1, MASKED.height)).toBeUndefined();
    const withDecode = imageDictionary(softMaskPdf(true), red)!;
    expect(softMaskSamples(softMaskPdf(true), withDecode, MASKED.width, MASKED.height)).toBeUndefined();
  });

  it('finds a picture\'s dictionary when another stream ends with the same bytes, and none for a stream stored twice', () => {
    const tail = new Uint8Array(600).map((_, i) => (i * 7) % 251);
    const first = Buffer.concat([Buffer.from('the first picture, '), tail]);
    const second = Buffer.concat([Buffer.from('and the second one, '), tail]);
    const object = (number: number, dictionary: string, data: Uint8Array) =>
      Buffer.concat([Buffer.from(`${number} 0 obj\n<< ${dictionary} /Length ${data.length} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream\nendobj\n', 'latin1')]);
    const file = Buffer.concat([object(6, '/Subtype /Image /SMask 7 0 R', first), object(8, '/Subtype /Image', second)]);
    expect(imageDictionary(file, first)).toMatchObject({ masked: true });
    expect(imageDictionary(file, second)).toMatchObject({ masked: false });
    expect(imageDictionary(Buffer.concat([file, object(9, '/Subtype /Image', second)]), second)).toBeUndefined();
  });

  it('writes the predicted picture with the pixels the PDF gives it', () => {
    const photo = decodePng(result.assets[1]!.bytes);
    expect(photo).toMatchObject({ ...PHOTO, channels: 3 });
    expect(Buffer.from(photo.pixels).equals(Buffer.from(photoPixels()))).toBe(true);
  });
});

describe('pictures whose Flate streams carry parameters', () => {
  const { width, height } = MASKED;
  const red = new Uint8Array(width * height * 3).map((_, i) => (i % 3 === 0 ? 220 : 20));
  let result: PlacedImages;
  beforeAll(async () => {
    result = await placed('streams.pdf', streamsPdf());
  }, 60_000);
  const asset = (name: string) => result.assets.find((file) => file.name === name)!.bytes;

  it('writes a picture stored with PNG predictors with its stream as the PNG\'s data, and the pixels the PDF gives it', () => {
    expect(result.assets.map((file) => file.name).sort()).toEqual(['p1-figure-1.png', 'p1-figure-2.png', 'p1-figure-3.png', 'p1-figure-4.png', 'p1-figure-5.png']);
    const stored = asset('p1-figure-1.png');
    expect(pngData(stored).equals(deflateSync(subPredicted(photoPixels(), PHOTO.width, 3)))).toBe(true);
    // Predicted a byte at a time (/Colors 1): decoded by PDFium, whose pixels are the same.
    for (const picture of [decodePng(stored), decodePng(asset('p1-figure-2.png'))]) {
      expect(picture).toMatchObject({ ...PHOTO, channels: 3 });
      expect(Buffer.from(picture.pixels).equals(Buffer.from(photoPixels()))).toBe(true);
    }
  });

  it('joins a predicted picture with its predicted mask, and a picture with its 1-bit mask', () => {
    const faded = decodePng(asset('p1-figure-3.png'));
    const stencil = decodePng(asset('p1-figure-4.png'));
    expect(faded).toMatchObject({ ...MASKED, channels: 4 });
    expect(stencil).toMatchObject({ ...MASKED, channels: 4 });
    const [fadedAlpha, stencilAlpha] = [maskAlpha(), bitMaskAlpha()];
    for (let i = 0; i < width * height; i++) {
      expect([...faded.pixels.subarray(i * 4, i * 4 + 4)]).toEqual([220, 20, 20, fadedAlpha[i]]);
      expect([...stencil.pixels.subarray(i * 4, i * 4 + 4)]).toEqual([221, 21, 21, stencilAlpha[i]]);
    }
  });

  it('writes a picture under a mask opaque everywhere as one without, with no alpha channel', () => {
    const opaque = decodePng(asset('p1-figure-5.png'));
    expect(opaque).toMatchObject({ ...PHOTO, channels: 3 });
    expect(Buffer.from(opaque.pixels).equals(Buffer.from(photoPixels().map((value) => 255 - value)))).toBe(true);
  });

  it('reads those masks, and a colour space named by reference, from the file', () => {
    const file = streamsPdf();
    const faded = imageDictionary(file, deflateSync(subPredicted(red, width, 3)))!;
    expect(Buffer.from(softMaskSamples(file, faded, width, height)!).equals(Buffer.from(maskAlpha()))).toBe(true);
    const stencil = imageDictionary(file, deflateSync(red.map((value) => value + 1)))!;
    expect(Buffer.from(softMaskSamples(file, stencil, width, height)!).equals(Buffer.from(bitMaskAlpha()))).toBe(true);
    const icc = imageDictionary(file, deflateSync(subPredicted(photoPixels(), PHOTO.width, 3)))!;
    expect(plainChannels(file, icc.entries!)).toBe(3);
    expect(plainChannels(file, new Map([['BitsPerComponent', '8'], ['ColorSpace', '[/Indexed /DeviceRGB 1 <000000ffffff>]']]))).toBe('other');
    expect(plainChannels(file, new Map([['BitsPerComponent', '8'], ['ColorSpace', '99 0 R']]))).toBeUndefined();
  });
});

describe('a JPEG under a soft mask', () => {
  let result: PlacedImages;
  beforeAll(async () => {
    result = await placed('faded-photo.pdf', jpegSoftMaskPdf());
  }, 60_000);

  /** The largest difference of a colour from its block's, over the picture. */
  function worstColour(picture: ReturnType<typeof decodePng>, blue?: number): number {
    let worst = 0;
    for (let y = 0; y < picture.height; y++) {
      for (let x = 0; x < picture.width; x++) {
        const expected = jpegBlockColour(x >> 3, y >> 3, blue);
        const at = (y * picture.width + x) * picture.channels;
        for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(picture.pixels[at + c]! - expected[c]!));
      }
    }
    return worst;
  }

  it('writes it at its own pixel size with the JPEG\'s colours and the mask\'s transparency', () => {
    expect(result.assets.map((asset) => asset.name)).toEqual(['p1-figure-1.png', 'p1-figure-2.png']);
    const faded = decodePng(result.assets[0]!.bytes);
    expect(faded).toMatchObject({ ...MASKED, channels: 4 });
    // The colour conversion of YCbCr back to RGB rounds.
    expect(worstColour(faded)).toBeLessThanOrEqual(2);
    const alpha = maskAlpha();
    let worst = 0;
    for (let i = 0; i < alpha.length; i++) worst = Math.max(worst, Math.abs(faded.pixels[i * 4 + 3]! - alpha[i]!));
    expect(worst).toBeLessThanOrEqual(1);
  });

  it('writes it without an alpha channel when the mask is opaque everywhere', () => {
    const opaque = decodePng(result.assets[1]!.bytes);
    expect(opaque).toMatchObject({ ...MASKED, channels: 3 });
    expect(worstColour(opaque, OPAQUE_JPEG_BLUE)).toBeLessThanOrEqual(2);
  });
});

describe('an image bomb in a PDF', () => {
  it('fails the document with IMAGES_OVER_LIMIT naming it, the picture never decoded', async () => {
    const used = process.memoryUsage().rss;
    await expect(placed('bomb.pdf', imageBombPdf())).rejects.toMatchObject({
      code: 'IMAGES_OVER_LIMIT',
      message: expect.stringMatching(/^bomb\.pdf: a picture of 60000 × 60000 pixels/),
    });
    // Decoding it would take 3.6 GB.
    expect(process.memoryUsage().rss - used).toBeLessThan(500 * 1024 * 1024);
  }, 60_000);
});

describe('figure regions', () => {
  const page = { width: 612, height: 792 };
  const rule = (x0: number, y0: number, x1: number, y1: number) => ({ x0, y0, x1, y1 });

  it('are not a table grid of thin rules, nor a frame around the page', () => {
    const grid = [0, 1, 2, 3].flatMap((i) => [rule(72, 100 + 30 * i, 400, 100 + 30 * i + 0.5), rule(72 + 100 * i, 100, 72 + 100 * i + 0.5, 190)]);
    expect(figureRegions(grid, [], page.width, page.height)).toEqual([]);
    const frame = [rule(10, 10, 602, 782), rule(20, 20, 592, 772), rule(30, 30, 582, 762)];
    expect(figureRegions(frame, [], page.width, page.height)).toEqual([]);
  });

  it('are found apart from a frame drawn round the page as four rules, which would join every drawing near an edge', () => {
    const frame = [rule(0, 0, 612, 0.5), rule(0, 791.5, 612, 792), rule(0, 0, 0.5, 792), rule(611.5, 0, 612, 792)];
    // A chart near the top edge, and a footer band (too low to be a figure) on the bottom edge: joined through the
    // frame, they would make one region the size of the page, which is no figure.
    const chart = [rule(72, 4, 72.5, 200), rule(72, 200, 300, 200.5), rule(90, 100, 120, 200), rule(150, 60, 180, 200)];
    const footer = [rule(0, 760, 612, 792), rule(20, 770, 60, 785), rule(80, 770, 120, 785)];
    expect(figureRegions([...frame, ...chart, ...footer], [], page.width, page.height)).toEqual([rule(72, 4, 300, 200.5)]);
  });

  it('are not a shaded box around running text', () => {
    const box = [rule(72, 100, 400, 300), rule(72, 100, 400, 101), rule(72, 299, 400, 300)];
    const text = [{ rect: rule(80, 110, 390, 290), chars: 600 }];
    expect(figureRegions(box, text, page.width, page.height)).toEqual([]);
  });

  it('are not a shaded band against a table, but a table read inside a larger drawing leaves the drawing', () => {
    const band = [rule(72, 100, 540, 130), rule(150, 112, 500, 112.5), rule(72, 130, 540, 130.5)];
    const table = { rect: rule(72, 132, 540, 300), chars: 400, table: true };
    expect(figureRegions(band, [table], page.width, page.height)).toEqual([]);
    const chart = [rule(72, 100, 72.5, 400), rule(72, 400, 540, 400.5), rule(90, 150, 140, 400), rule(200, 250, 250, 400), rule(300, 200, 350, 400)];
    const labelsAsTable = { rect: rule(90, 380, 360, 398), chars: 120, table: true };
    expect(figureRegions(chart, [labelsAsTable], page.width, page.height)).toEqual([rule(72, 100, 540, 400.5)]);
  });

  it('take in the labels beside a drawing, not its caption', () => {
    const bars = [rule(100, 200, 100.5, 400), rule(100, 400, 400, 400.5), rule(120, 320, 170, 400), rule(190, 250, 240, 400)];
    const texts = [
      { rect: rule(80, 390, 90, 398), chars: 1 },
      { rect: rule(120, 404, 160, 412), chars: 5 },
      { rect: rule(100, 430, 260, 442), chars: 26, caption: true },
    ];
    expect(figureRegions(bars, texts, page.width, page.height)).toEqual([rule(80, 200, 400, 412)]);
  });
});
