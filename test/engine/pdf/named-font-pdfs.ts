/**
 * PDFs set in fonts that are named but not embedded, with what a writer put in their descriptors and ToUnicode
 * maps: PDFium reads a standard font's own encoding, but these fonts' maps and StemV as written, as it reads those
 * of other writers' embedded fonts (a weight guessed from StemV, a hyphen mapped to U+00AD, a ligature a byte off).
 */
import { assemblePdf } from './scanned-pdfs.js';

export interface NamedFont {
  /** The font's name as the PDF gives it (`Calibri`, `Lato-Bold`, `CairoFont-0-0`). */
  name: string;
  /** The descriptor's StemV, from which PDFium guesses the weight (×5 under 140, else ×4 + 140). */
  stemV?: number;
  /** Codes read as other text than WinAnsi's (a code's two hex digits → UTF-16BE hex, `2D` → `00AD`). */
  mapped?: Record<string, string>;
}

export interface NamedFontLine {
  /** Index into the fonts. */
  font: number;
  size: number;
  x: number;
  /** Baseline, PDF user space. */
  y: number;
  /** Latin-1 text; a code listed in the font's `mapped` reads as mapped. */
  text: string;
}

/** A 612 × 792 page of `lines`; every glyph 556 units wide (278 the space), so layout reads as for any font. */
export function namedFontPdf(fonts: readonly NamedFont[], lines: readonly NamedFontLine[]): Uint8Array {
  const widths = Array.from({ length: 224 }, (_, i) => (i === 0 ? 278 : 556)).join(' ');
  const stream = (body: string) => `<< /Length ${Buffer.byteLength(body, 'latin1')} >>\nstream\n${body}\nendstream`;
  const content = lines
    .map((line) => `BT /F${line.font} ${line.size} Tf ${line.x} ${line.y} Td (${line.text.replace(/[()\\]/g, (c) => `\\${c}`)}) Tj ET`)
    .join('\n');
  const fontsAt = 6;
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << ${fonts.map((_, i) => `/F${i} ${fontsAt + 3 * i} 0 R`).join(' ')} >> >> /Contents 4 0 R >>`,
    stream(content),
    '<< >>',
  ];
  fonts.forEach((font, i) => {
    const at = fontsAt + 3 * i;
    objects.push(
      `<< /Type /Font /Subtype /TrueType /BaseFont /${font.name} /FirstChar 32 /LastChar 255 /Widths [${widths}] /Encoding /WinAnsiEncoding /FontDescriptor ${at + 1} 0 R /ToUnicode ${at + 2} 0 R >>`,
      `<< /Type /FontDescriptor /FontName /${font.name} /Flags 32 /FontBBox [-200 -250 1200 950] /ItalicAngle 0 /Ascent 900 /Descent -250 /CapHeight 700 /StemV ${font.stemV ?? 80} >>`,
      stream(toUnicodeMap(font.mapped ?? {})),
    );
  });
  return assemblePdf(objects);
}

/** WinAnsi's printable ASCII as itself, the codes in `mapped` as given. */
function toUnicodeMap(mapped: Record<string, string>): string {
  const chars = Object.entries(mapped).map(([code, unicode]) => `<${code}> <${unicode}>`);
  const ascii = Array.from({ length: 0x7f - 0x20 }, (_, i) => 0x20 + i)
    .filter((code) => !(code.toString(16).toUpperCase() in mapped))
    .map((code) => `<${code.toString(16).toUpperCase()}> <${code.toString(16).toUpperCase().padStart(4, '0')}>`);
  const all = [...ascii, ...chars];
  const blocks: string[] = [];
  for (let i = 0; i < all.length; i += 100) {
    const part = all.slice(i, i + 100);
    blocks.push(`${part.length} beginbfchar\n${part.join('\n')}\nendbfchar`);
  }
  return [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CMapName /Named def /CMapType 2 def',
    '1 begincodespacerange <00> <FF> endcodespacerange',
    ...blocks,
    'endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
}
