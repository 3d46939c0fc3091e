/**
 * PDFs that mix a text layer and raster images, made in the test: text drawn in Helvetica, and images that are
 * pictures of text (a fixture text page rendered to greyscale pixels by the engine's own PDFium renderer) or of
 * no text (a grey gradient, a small solid logo), placed where a page puts a scan, a scanned figure or a logo.
 */
import { deflateSync } from 'node:zlib';
import { PageRenderer, type GreyBitmap } from '../../../src/engine/pdf/ocr/render-page.js';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { assemblePdf } from './scanned-pdfs.js';

/** A greyscale picture and where the page draws it (PDF points, origin bottom-left). */
export interface PlacedImage {
  bitmap: Pick<GreyBitmap, 'width' | 'height' | 'pixels'>;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface MixedPage {
  /** Text-layer runs in Helvetica: baseline at (x, y), PDF points from the bottom-left. */
  text: { x: number; y: number; text: string; size: number }[];
  images: PlacedImage[];
  width?: number;
  height?: number;
}

/** A picture of `runs` (and of the content-stream operators `graphics`) on a `width` × `height` pt canvas, at `dpi`. */
export async function pictureOfText(runs: TextRun[], width: number, height: number, dpi = 200, graphics?: string): Promise<GreyBitmap> {
  const renderer = await PageRenderer.open(writePdf({ pages: [{ runs, width, height, ...(graphics ? { graphics } : {}) }] }));
  if (!renderer) throw new Error('the fixture text PDF could not be rendered');
  const bitmap = renderer.render(1, dpi);
  renderer.close();
  if (!bitmap) throw new Error('the fixture text page could not be rendered');
  return bitmap;
}

/** A left-to-right grey gradient with soft horizontal bands: a picture with no text in it. */
export function gradient(width: number, height: number): PlacedImage['bitmap'] {
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels[y * width + x] = 120 + Math.round((100 * x) / width) + Math.round(20 * Math.sin(y / 9));
  }
  return { width, height, pixels };
}

/** A filled dark square: a logo. */
export function solid(side: number, grey = 40): PlacedImage['bitmap'] {
  return { width: side, height: side, pixels: new Uint8Array(side * side).fill(grey) };
}

function stream(dictionary: string, data: Uint8Array): Uint8Array {
  return Buffer.concat([
    Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`, 'latin1'),
    Buffer.from(data),
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

function pdfString(text: string): string {
  return `(${text.replace(/[()\\]/g, (c) => `\\${c}`)})`;
}

/** One PDF with one page per `MixedPage`: images painted first, the text layer over them. */
export function mixedPdf(pages: readonly MixedPage[]): Uint8Array {
  // 1 catalogue, 2 page tree, 3 font, then per page: page, content, images.
  const objects: (string | Uint8Array)[] = ['', '', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'];
  const kids: number[] = [];
  for (const page of pages) {
    const pageId = objects.length + 1;
    kids.push(pageId);
    const imageIds = page.images.map((_, i) => pageId + 2 + i);
    const ops: string[] = [];
    page.images.forEach((image, i) => ops.push(`q ${image.width} 0 0 ${image.height} ${image.x} ${image.y} cm /Im${i} Do Q`));
    for (const run of page.text) ops.push(`BT /F1 ${run.size} Tf ${run.x} ${run.y} Td ${pdfString(run.text)} Tj ET`);
    const xobjects = imageIds.map((id, i) => `/Im${i} ${id} 0 R`).join(' ');
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${page.width ?? 612} ${page.height ?? 792}] ` +
        `/Resources << /Font << /F1 3 0 R >> /XObject << ${xobjects} >> >> /Contents ${pageId + 1} 0 R >>`,
    );
    objects.push(stream('', new TextEncoder().encode(ops.join('\n'))));
    for (const image of page.images) {
      objects.push(
        stream(
          `/Type /XObject /Subtype /Image /Width ${image.bitmap.width} /Height ${image.bitmap.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
          deflateSync(image.bitmap.pixels),
        ),
      );
    }
  }
  objects[0] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[1] = `<< /Type /Pages /Kids [${kids.map((id) => `${id} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  return assemblePdf(objects);
}

/**
 * A text page that paints one picture through a form XObject twice (at y 600 and 400 pt, 360 × 90 pt) and once
 * more as an inline image (at y 200 pt, 360 × 90 pt), as word processors and some scanners write them.
 */
export function formAndInlineImagePdf(picture: Pick<GreyBitmap, 'width' | 'height' | 'pixels'>): Uint8Array {
  const hex = Buffer.from(picture.pixels).toString('hex');
  const content = [
    'BT /F1 12 Tf 72 720 Td (The report opens with three figures.) Tj ET',
    'q 1 0 0 1 72 600 cm /Fm0 Do Q',
    'q 1 0 0 1 72 400 cm /Fm0 Do Q',
    `q 360 0 0 90 72 200 cm BI /W ${picture.width} /H ${picture.height} /CS /G /BPC 8 /F /AHx ID ${hex}> EI Q`,
    'BT /F1 12 Tf 72 120 Td (The text after the figures.) Tj ET',
  ].join('\n');
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> /XObject << /Fm0 6 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    stream('', new TextEncoder().encode(content)),
    stream('/Type /XObject /Subtype /Form /BBox [0 0 360 90] /Resources << /XObject << /Im0 7 0 R >> >>', new TextEncoder().encode('q 360 0 0 90 0 0 cm /Im0 Do Q')),
    stream(
      `/Type /XObject /Subtype /Image /Width ${picture.width} /Height ${picture.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
      deflateSync(picture.pixels),
    ),
  ]);
}
