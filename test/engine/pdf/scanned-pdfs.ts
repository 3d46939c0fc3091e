/**
 * Scanned PDFs for OCR tests, made in the test: a text PDF from the fixture writer is rendered to greyscale
 * pixels with the engine's own page renderer (PDFium), and those pixels are wrapped as an image XObject filling
 * a page with no text layer, as a scanner writes it. Also a PDF whose text layer maps every glyph to a
 * private-use code point (a broken ToUnicode map), which reads as garbage.
 */
import { deflateSync } from 'node:zlib';
import { PageRenderer } from '../../../src/engine/pdf/ocr/render-page.js';
import { writePdf, type PageSpec } from './fixtures/pdf-writer.js';

/** Writes numbered objects (strings or bytes) into a PDF with its cross-reference table; object 1 is the catalogue. */
export function assemblePdf(objects: readonly (string | Uint8Array)[]): Uint8Array {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(length);
    const chunk = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : Buffer.from(body),
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(chunk);
    length += chunk.length;
  });
  let xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) xref += `${String(offset).padStart(10, '0')} 00000 n \n`;
  xref += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(xref, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}

function streamObject(dictionary: string, data: Uint8Array): Uint8Array {
  return Buffer.concat([
    Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`, 'latin1'),
    Buffer.from(data),
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

/**
 * `pages` pages of a scan of `page` (rendered at `dpi`), all showing the same image (one XObject, so a
 * hundred-page scan stays small). Letter size.
 */
export async function scannedPdf(page: PageSpec, options: { pages?: number; dpi?: number; lang?: string } = {}): Promise<Uint8Array> {
  const width = page.width ?? 612;
  const height = page.height ?? 792;
  const renderer = await PageRenderer.open(writePdf({ pages: [page] }));
  if (!renderer) throw new Error('the fixture text PDF could not be rendered');
  const bitmap = renderer.render(1, options.dpi ?? 200);
  renderer.close();
  if (!bitmap) throw new Error('the fixture text page could not be rendered');
  const count = options.pages ?? 1;
  const image = streamObject(
    `/Type /XObject /Subtype /Image /Width ${bitmap.width} /Height ${bitmap.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
    deflateSync(bitmap.pixels),
  );
  const content = new TextEncoder().encode(`q ${width} 0 0 ${height} 0 0 cm /Scan Do Q`);
  // 1 catalogue, 2 page tree, 3 image, 4 content, 5... pages.
  const kids = Array.from({ length: count }, (_, i) => `${5 + i} 0 R`).join(' ');
  const objects: (string | Uint8Array)[] = [
    `<< /Type /Catalog /Pages 2 0 R${options.lang ? ` /Lang (${options.lang})` : ''} >>`,
    `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`,
    image,
    streamObject('', content),
  ];
  for (let i = 0; i < count; i++) {
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /XObject << /Scan 3 0 R >> >> /Contents 4 0 R >>`);
  }
  return assemblePdf(objects);
}

/**
 * One page of Helvetica text whose ToUnicode map sends every code to the private-use area: it draws readable
 * words, but its text layer is garbage.
 */
export function privateUseTextPdf(lines: readonly string[]): Uint8Array {
  const toUnicode = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CMapName /Broken def /CMapType 2 def',
    '1 begincodespacerange <00> <FF> endcodespacerange',
    '1 beginbfrange <20> <7E> <E020> endbfrange',
    'endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
  const text = lines
    .map((line, i) => `BT /F1 20 Tf 72 ${700 - i * 32} Td (${line.replace(/[()\\]/g, (c) => `\\${c}`)}) Tj ET`)
    .join('\n');
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode 6 0 R >>',
    streamObject('', new TextEncoder().encode(text)),
    streamObject('', new TextEncoder().encode(toUnicode)),
  ]);
}
