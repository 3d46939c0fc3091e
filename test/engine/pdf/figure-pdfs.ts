/**
 * PDFs whose pictures are known, made in the test: a page with an RGB photo (a gradient of known pixels) above its
 * caption, a small grey logo in the corner and a 10-pixel dot; a second page with the same logo and a bar chart
 * drawn with vector paths (axes, four filled bars) with its tick and category labels as text, above its caption;
 * and an image bomb, a picture declaring 60,000 × 60,000 pixels in a few bytes.
 */
import { deflateSync } from 'node:zlib';
import { assemblePdf } from './scanned-pdfs.js';

function stream(dictionary: string, data: Uint8Array): Uint8Array {
  return Buffer.concat([Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`, 'latin1'), Buffer.from(data), Buffer.from('\nendstream', 'latin1')]);
}

function text(x: number, y: number, size: number, words: string): string {
  return `BT /F1 ${size} Tf ${x} ${y} Td (${words}) Tj ET`;
}

export const PHOTO = { width: 200, height: 150 };

/** The photo's pixels, RGB, top row first: red across, green down, blue in stripes. */
export function photoPixels(): Uint8Array {
  const { width, height } = PHOTO;
  const pixels = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      pixels[at] = Math.round((255 * x) / width);
      pixels[at + 1] = Math.round((255 * y) / height);
      pixels[at + 2] = (x >> 3) % 2 === 0 ? 200 : 40;
    }
  }
  return pixels;
}

export const LOGO_SIDE = 48;
/** The bars' fill colour (0.2 0.4 0.8 in the PDF). */
export const BAR_RGB = [51, 102, 204] as const;

/** Page 1: photo, caption, logo, dot; page 2: logo, bar chart with labels, caption. Letter size. */
export function figuresPdf(): Uint8Array {
  const page1 = [
    'q 48 0 0 48 500 720 cm /Logo Do Q',
    text(72, 700, 12, 'Revenue grew in every region this quarter, as the pictures below show.'),
    'q 300 0 0 225 72 450 cm /Photo Do Q',
    text(72, 430, 10, 'Figure 1: Team photo'),
    'q 10 0 0 10 72 100 cm /Dot Do Q',
    text(72, 300, 12, 'The team met in the spring to plan the year ahead.'),
  ].join('\n');
  const page2 = [
    'q 48 0 0 48 500 720 cm /Logo Do Q',
    text(72, 700, 12, 'Each region is shown by one bar of the chart.'),
    '0 0 0 RG 1 w 100 400 m 100 600 l S 100 400 m 400 400 l S',
    '0.2 0.4 0.8 rg 120 400 50 80 re f 190 400 50 150 re f 260 400 50 120 re f 330 400 50 60 re f',
    ...['0', '100', '200', '300'].map((label, i) => text(80, 397 + 50 * i, 8, label)),
    ...['North', 'South', 'East', 'West'].map((label, i) => text(125 + 70 * i, 388, 8, label)),
    text(100, 360, 10, 'Figure 2: Revenue by region'),
    text(72, 300, 12, 'North led the year; West trailed it.'),
  ].join('\n');
  const logo = new Uint8Array(LOGO_SIDE * LOGO_SIDE).map((_, i) => ((i % LOGO_SIDE) + Math.floor(i / LOGO_SIDE)) % 2 === 0 ? 30 : 220);
  const resources = '/Resources << /Font << /F1 3 0 R >> /XObject << /Logo 6 0 R /Photo 7 0 R /Dot 8 0 R >> >>';
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R 9 0 R] /Count 2 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ${resources} /Contents 5 0 R >>`,
    stream('', new TextEncoder().encode(page1)),
    stream(`/Type /XObject /Subtype /Image /Width ${LOGO_SIDE} /Height ${LOGO_SIDE} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`, deflateSync(logo)),
    stream(`/Type /XObject /Subtype /Image /Width ${PHOTO.width} /Height ${PHOTO.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode`, deflateSync(photoPixels())),
    stream('/Type /XObject /Subtype /Image /Width 10 /Height 10 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode', deflateSync(new Uint8Array(100).fill(90))),
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ${resources} /Contents 10 0 R >>`,
    stream('', new TextEncoder().encode(page2)),
  ]);
}

/** A page of text with a picture declaring 60,000 × 60,000 pixels (3.6 billion) in a few bytes of stream. */
export function imageBombPdf(): Uint8Array {
  const page = [text(72, 700, 12, 'A page with a very large picture.'), 'q 300 0 0 300 72 300 cm /Bomb Do Q'].join('\n');
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> /XObject << /Bomb 6 0 R >> >> /Contents 5 0 R >>',
    stream('', new TextEncoder().encode(page)),
    stream('/Type /XObject /Subtype /Image /Width 60000 /Height 60000 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode', deflateSync(new Uint8Array(1000))),
  ]);
}

export const MASKED = { width: 64, height: 48 };

/** The soft mask's alpha, top row first: opaque on the left, clear on the right. */
export function maskAlpha(): Uint8Array {
  const { width, height } = MASKED;
  const alpha = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) alpha[y * width + x] = Math.round((255 * (width - 1 - x)) / (width - 1));
  return alpha;
}

/**
 * Rows of PNG-predicted pixels (the PDF's /Predictor 15): each row led by its filter type, here Sub (1), the byte
 * `channels` to the left subtracted (what /Colors says; 1 byte for 1-bit samples).
 */
export function subPredicted(pixels: Uint8Array, width: number, channels: number): Uint8Array {
  const rowBytes = width * channels;
  const rows = pixels.length / rowBytes;
  const out = new Uint8Array(rows * (rowBytes + 1));
  for (let y = 0; y < rows; y++) {
    out[y * (rowBytes + 1)] = 1;
    for (let i = 0; i < rowBytes; i++) {
      const left = i >= channels ? pixels[y * rowBytes + i - channels]! : 0;
      out[y * (rowBytes + 1) + 1 + i] = (pixels[y * rowBytes + i]! - left) & 0xff;
    }
  }
  return out;
}

/**
 * A page with two pictures: a red square 64 × 48 whose soft mask fades it from opaque to clear (drawn at twice its
 * size), and the team photo stored with PNG predictors (/DecodeParms /Predictor 15), as many writers store pictures.
 * `maskDecode`: the mask carries an identity /Decode array, the same alpha in a form docmill leaves to PDFium.
 */
export function softMaskPdf(maskDecode = false): Uint8Array {
  const { width, height } = MASKED;
  const red = new Uint8Array(width * height * 3).map((_, i) => (i % 3 === 0 ? 220 : 20));
  const page = [
    text(72, 700, 12, 'A faded square and a photo.'),
    `q ${width * 2} 0 0 ${height * 2} 72 550 cm /Faded Do Q`,
    'q 300 0 0 225 72 250 cm /Photo Do Q',
  ].join('\n');
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> /XObject << /Faded 6 0 R /Photo 8 0 R >> >> /Contents 5 0 R >>',
    stream('', new TextEncoder().encode(page)),
    stream(`/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /SMask 7 0 R /Filter /FlateDecode`, deflateSync(red)),
    stream(`/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode${maskDecode ? ' /Decode [0 1]' : ''}`, deflateSync(maskAlpha())),
    stream(
      `/Type /XObject /Subtype /Image /Width ${PHOTO.width} /Height ${PHOTO.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 3 /Columns ${PHOTO.width} >>`,
      deflateSync(subPredicted(photoPixels(), PHOTO.width, 3)),
    ),
  ]);
}

/** The JPEG's colour in each 8 × 8 block, RGB: a colour per block column, darker down the rows. */
export function jpegBlockColour(column: number, row: number, blue = 120): [number, number, number] {
  return [200 - row * 20, 40 + column * 20, blue];
}

/**
 * A baseline JPEG of MASKED's size whose 8 × 8 blocks are flat colours (jpegBlockColour): YCbCr, no subsampling, a
 * quantisation table of ones and only each block's DC coefficient, so the decoded pixels are the colours within the
 * rounding of the colour conversion. No encoder is needed: Huffman tables of the standard's DC codes and one AC code
 * (end of block).
 */
export function flatJpeg(blue = 120): Uint8Array {
  const { width, height } = MASKED;
  const segment = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
  // The standard's luminance DC table (ITU T.81, K.3): code lengths, and the canonical codes they give.
  const dcCounts = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
  const dcCodes: { code: number; length: number }[] = [];
  for (let length = 1, code = 0; length <= 16; length++, code <<= 1) for (let i = 0; i < dcCounts[length - 1]!; i++) dcCodes.push({ code: code++, length });
  const bits: number[] = [];
  const put = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >> i) & 1);
  };
  const previous = [0, 0, 0];
  for (let row = 0; row < height / 8; row++) {
    for (let column = 0; column < width / 8; column++) {
      const [r, g, b] = jpegBlockColour(column, row, blue);
      const ycc = [0.299 * r + 0.587 * g + 0.114 * b, -0.168736 * r - 0.331264 * g + 0.5 * b + 128, 0.5 * r - 0.418688 * g - 0.081312 * b + 128];
      ycc.forEach((value, component) => {
        // A flat block's DC coefficient is 8 × its level-shifted value.
        const dc = Math.round(8 * (value - 128));
        const diff = dc - previous[component]!;
        previous[component] = dc;
        const size = diff === 0 ? 0 : Math.floor(Math.log2(Math.abs(diff))) + 1;
        put(dcCodes[size]!.code, dcCodes[size]!.length);
        if (size > 0) put(diff > 0 ? diff : diff + (1 << size) - 1, size);
        put(0, 1); // end of block: the AC table's one code
      });
    }
  }
  while (bits.length % 8 !== 0) bits.push(1);
  const scan: number[] = [];
  for (let i = 0; i < bits.length; i += 8) {
    const byte = bits.slice(i, i + 8).reduce((value, bit) => (value << 1) | bit, 0);
    scan.push(byte);
    if (byte === 0xff) scan.push(0);
  }
  const components = [1, 2, 3].flatMap((id) => [id, 0x11, 0]);
  return Uint8Array.from([
    0xff, 0xd8,
    ...segment(0xdb, [0, ...new Array<number>(64).fill(1)]),
    ...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, ...components]),
    ...segment(0xc4, [0x00, ...dcCounts, ...dcCodes.map((_, symbol) => symbol)]),
    ...segment(0xc4, [0x10, 1, ...new Array<number>(15).fill(0), 0x00]),
    ...segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]),
    ...scan,
    0xff, 0xd9,
  ]);
}

/** The blue of the JPEG under the opaque mask (two streams alike would not tell their dictionaries apart). */
export const OPAQUE_JPEG_BLUE = 160;

/**
 * A page with the JPEG under a soft mask (the faded square's, plain, read from the file), and one with another
 * blue under a mask that is opaque everywhere.
 */
export function jpegSoftMaskPdf(): Uint8Array {
  const { width, height } = MASKED;
  const page = [
    text(72, 700, 12, 'A faded photo and an opaque one.'),
    `q ${width * 2} 0 0 ${height * 2} 72 550 cm /Faded Do Q`,
    `q ${width * 2} 0 0 ${height * 2} 72 350 cm /Opaque Do Q`,
  ].join('\n');
  const image = (mask: number, jpeg: Uint8Array) =>
    stream(`/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /SMask ${mask} 0 R /Filter /DCTDecode`, jpeg);
  const mask = (alpha: Uint8Array) => stream(`/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`, deflateSync(alpha));
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> /XObject << /Faded 6 0 R /Opaque 8 0 R >> >> /Contents 5 0 R >>',
    stream('', new TextEncoder().encode(page)),
    image(7, flatJpeg()),
    mask(maskAlpha()),
    image(9, flatJpeg(OPAQUE_JPEG_BLUE)),
    mask(new Uint8Array(width * height).fill(255)),
  ]);
}

/** A 1-bit mask's rows (padded to whole bytes, first pixel in the high bit): 1 (opaque) where `opaque(x, y)`. */
function bitRows(width: number, height: number, opaque: (x: number, y: number) => boolean): Uint8Array {
  const rowBytes = Math.ceil(width / 8);
  const rows = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (opaque(x, y)) rows[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
  return rows;
}

/** The 1-bit mask of `streamsPdf`'s third picture: opaque left of column 40 and below row 10. */
export function bitMaskAlpha(): Uint8Array {
  const { width, height } = MASKED;
  return new Uint8Array(width * height).map((_, i) => (i % width < 40 && Math.floor(i / width) >= 10 ? 255 : 0));
}

/**
 * Pictures whose streams use Flate's parameters, in the colour spaces writers name by reference: (1) the photo
 * with PNG predictors, its colour space an ICCBased RGB behind a reference; (2) the photo predicted byte by byte
 * (/Colors 1 over three times the columns: not a PNG's rows for RGB pixels); (3) the red square, predicted, under
 * the fading mask stored with PNG predictors; (4) the red square under a 1-bit mask; (5) the photo under a mask
 * opaque everywhere whose /DecodeParms name no predictor.
 */
export function streamsPdf(): Uint8Array {
  const { width, height } = MASKED;
  const red = new Uint8Array(width * height * 3).map((_, i) => (i % 3 === 0 ? 220 : 20));
  const page = [
    text(72, 700, 12, 'Pictures stored with predictors.'),
    'q 200 0 0 150 72 520 cm /Icc Do Q',
    'q 200 0 0 150 300 520 cm /Bytes Do Q',
    `q ${width * 2} 0 0 ${height * 2} 72 380 cm /Faded Do Q`,
    `q ${width * 2} 0 0 ${height * 2} 300 380 cm /Stencil Do Q`,
    'q 200 0 0 150 72 150 cm /Opaque Do Q',
  ].join('\n');
  const photo = photoPixels();
  const mask = (dictionary: string, data: Uint8Array) => stream(`/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray ${dictionary} /Filter /FlateDecode`, deflateSync(data));
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> /XObject << /Icc 6 0 R /Bytes 9 0 R /Faded 10 0 R /Stencil 12 0 R /Opaque 14 0 R >> >> /Contents 5 0 R >>',
    stream('', new TextEncoder().encode(page)),
    stream(
      `/Type /XObject /Subtype /Image /Width ${PHOTO.width} /Height ${PHOTO.height} /ColorSpace 7 0 R /BitsPerComponent 8 /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 3 /Columns ${PHOTO.width} >>`,
      deflateSync(subPredicted(photo, PHOTO.width, 3)),
    ),
    '[/ICCBased 8 0 R]',
    stream('/N 3 /Alternate /DeviceRGB', new Uint8Array(0)),
    stream(
      `/Type /XObject /Subtype /Image /Width ${PHOTO.width} /Height ${PHOTO.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode /DecodeParms << /Predictor 11 /Colors 1 /Columns ${PHOTO.width * 3} >>`,
      deflateSync(subPredicted(photo, PHOTO.width * 3, 1)),
    ),
    stream(
      `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /SMask 11 0 R /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 3 /Columns ${width} >>`,
      deflateSync(subPredicted(red, width, 3)),
    ),
    mask(`/BitsPerComponent 8 /DecodeParms << /Predictor 15 /Columns ${width} >>`, subPredicted(maskAlpha(), width, 1)),
    stream(`/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /SMask 13 0 R /Filter /FlateDecode`, deflateSync(red.map((value) => value + 1))),
    mask('/BitsPerComponent 1', bitRows(width, height, (x, y) => x < 40 && y >= 10)),
    stream(`/Type /XObject /Subtype /Image /Width ${PHOTO.width} /Height ${PHOTO.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /SMask 15 0 R /Filter /FlateDecode`, deflateSync(photo.map((value) => 255 - value))),
    stream(`/Type /XObject /Subtype /Image /Width ${PHOTO.width} /Height ${PHOTO.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /DecodeParms << /Columns ${PHOTO.width} >> /Filter /FlateDecode`, deflateSync(new Uint8Array(PHOTO.width * PHOTO.height).fill(255))),
  ]);
}
