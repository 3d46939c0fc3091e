/**
 * Greek letters and operators inserted from the Symbol font, which Word writes at the private-use code points of
 * the font's codes (its ToUnicode map gives U+F0xx): read as the characters the Symbol encoding gives them.
 */
import { PDFDict, PDFDocument, PDFName, StandardFonts, type PDFFont } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { buildLines } from '../../../src/engine/pdf/lines.js';
import { nativePageItems, type NativeTextItem } from '../../../src/engine/pdf/liteparse/page-items.js';
import { convertBytes, convertWithPdfjs, mainMarkdown } from './helpers.js';

/** A ToUnicode map giving each code of the font the private-use code point U+F000 + code, as Word's exports do. */
function privateUseMap(): string {
  const codes = Array.from({ length: 0xff - 0x20 }, (_, i) => i + 0x20);
  const entries = codes.map((code) => `<${code.toString(16).toUpperCase()}> <F0${code.toString(16).toUpperCase()}>`);
  const blocks: string[] = [];
  for (let i = 0; i < entries.length; i += 100) {
    const part = entries.slice(i, i + 100);
    blocks.push(`${part.length} beginbfchar ${part.join(' ')} endbfchar`);
  }
  return ['/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /SymbolPUA def', '1 begincodespacerange <00> <FF> endcodespacerange', ...blocks, 'endcmap CMapName currentdict /CMap defineresource pop end end'].join('\n');
}

/** A results paragraph whose symbols are set in Symbol: `p ≤ 0.05`, `5 μg`, `±`, `α`. */
async function resultsPage(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const [body, symbol] = await Promise.all([pdf.embedFont(StandardFonts.TimesRoman), pdf.embedFont(StandardFonts.Symbol)]);
  const page = pdf.addPage([595, 842]);
  const size = 11;
  let x = 60;
  const put = (text: string, font: PDFFont) => {
    page.drawText(text, { x, y: 740, size, font });
    x += font.widthOfTextAtSize(text, size);
  };
  put('Each dose of 5 ', body);
  put('μ', symbol);
  put('g lowered the level by 12 ', body);
  put('±', symbol);
  put(' 3 % (p ', body);
  put('≤', symbol);
  put(' 0.05) at ', body);
  put('α', symbol);
  put(' = 0.01.', body);
  await symbol.embed();
  pdf.context.lookup(symbol.ref, PDFDict).set(PDFName.of('ToUnicode'), pdf.context.register(pdf.context.stream(privateUseMap())));
  return pdf.save();
}

const READ = 'Each dose of 5 μg lowered the level by 12 ± 3 % (p ≤ 0.05) at α = 0.01.';

describe('text set in the Symbol font at private-use code points', () => {
  it('reads as the Symbol encoding’s characters on the built-in pdfjs path, which follows the font’s map', async () => {
    expect(mainMarkdown(await convertWithPdfjs(await resultsPage(), { mode: 'fast' }))).toBe(READ);
  });

  it('as PDFium reads this standard font by its own encoding: both readers agree', async () => {
    expect(mainMarkdown(await convertBytes(await resultsPage(), { mode: 'fast' }))).toBe(READ);
  });

  it('in a line of items, where a run of the Symbol font is named so; another symbol font’s private-use glyphs stay', () => {
    // LiteParse's items as it gives them, each read once as the page means it (liteparse/page-items.ts).
    const item = (text: string, x: number, fontName: string): NativeTextItem => ({ text, x, y: 90, width: 6 * text.length, height: 11, fontHeight: 11, fontName });
    const { items } = nativePageItems({
      width: 612,
      height: 792,
      textItems: [item('p', 10, 'Times-Roman'), item('\uf0a3', 20, 'ABCDEF+SymbolMT'), item('0.05,', 30, 'Times-Roman'), item('\uf0a7', 63, 'OpenSymbol'), item('done', 71, 'Times-Roman')],
    });
    const [line] = buildLines(items);
    expect(line!.text).toBe('p ≤ 0.05, \uf0a7 done');
  });
});
