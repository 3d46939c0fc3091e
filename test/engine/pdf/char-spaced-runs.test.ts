/**
 * Word gaps a PDF sets as character spacing, and spaces whose width it takes back (src/engine/pdf/char-spaced-runs.ts),
 * read from content streams written here as Ghostscript writes groff's PostScript, and as other writers set letter
 * spacing, which must part nothing.
 */
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { charSpacedRuns } from '../../../src/engine/pdf/char-spaced-runs.js';
import { assemblePdf } from './scanned-pdfs.js';

/** One page (612 × 792 unless `page` says otherwise) drawing `content` in Times-Roman as /F0. */
function pagePdf(content: string, page = '/MediaBox [0 0 612 792]', flate = false): Uint8Array {
  const data = flate ? deflateSync(Buffer.from(content, 'latin1')) : Buffer.from(content, 'latin1');
  const stream = Buffer.concat([Buffer.from(`<< /Length ${data.length}${flate ? ' /Filter /FlateDecode' : ''} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]);
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R ${page} /Resources << /Font << /F0 5 0 R >> >> /Contents 4 0 R >>`,
    stream,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>',
  ]);
}

const PAGE_ONE = new Set([1]);

describe('word gaps set as character spacing', () => {
  it("finds Ghostscript's `, p` of `with -l, print`: a spacing as wide as a space, set for that one string", () => {
    const pdf = pagePdf('BT /F0 10 Tf 144 530.58 Td (with)Tj 20.28 0 Td (-l)Tj 2.5 Tc 8.48 0 Td (,p)Tj 0 Tc 10 0 Td (rint the author)Tj ET', undefined, true);
    const runs = charSpacedRuns(pdf, PAGE_ONE).get(1);
    expect(runs).toEqual([{ x: expect.closeTo(172.76, 2), y: expect.closeTo(261.42, 2), text: ',p', partsAfter: [0], joinsAt: [], gap: 2.5, size: 10 }]);
  });

  it('places a run through the text matrix and the transformation, on the crop box', () => {
    const pdf = pagePdf('q 2 0 0 2 0 0 cm BT /F0 5 Tf 1 0 0 1 50 300 Tm 1.25 Tc (,p)Tj 0 Tc ET Q', '/MediaBox [0 0 612 792] /CropBox [10 20 602 772]');
    const [run] = charSpacedRuns(pdf, PAGE_ONE).get(1)!;
    // (50, 300) in text space is (100, 600) on the page: 90 from the crop box's left, 172 under its top.
    expect(run).toMatchObject({ x: 90, y: 172, size: 10, gap: 2.5 });
  });

  it('parts where the spacing is left after TJ moves, not where a move takes it back', () => {
    const pdf = pagePdf('BT /F0 10 Tf 100 700 Td 3.652 Tc [(Ti)365.2(sF)]TJ 0 Tc 40 0 Td (x)Tj ET');
    expect(charSpacedRuns(pdf, PAGE_ONE).get(1)?.[0]?.partsAfter).toEqual([0, 2]);
  });

  it('parts nothing under letter spacing kept over many strings (spaced capitals), nor under a narrow one', () => {
    const spaced = pagePdf('BT /F0 12 Tf 3.6 Tc 100 700 Td (OF)Tj 40 0 Td (THE)Tj 50 0 Td (SEA)Tj ET');
    expect(charSpacedRuns(spaced, PAGE_ONE).size).toBe(0);
    const tracked = pagePdf('BT /F0 12 Tf 100 700 Td 0.75 Tc (AR)Tj 0 Tc 20 0 Td (T)Tj ET');
    expect(charSpacedRuns(tracked, PAGE_ONE).size).toBe(0);
  });

  it('leaves a string whose start is unknown: drawn right after another, where only the font knows the first one’s width', () => {
    const pdf = pagePdf('BT /F0 10 Tf 100 700 Td (with -l)Tj 2.5 Tc (,p)Tj 0 Tc 10 0 Td (rint)Tj ET');
    expect(charSpacedRuns(pdf, PAGE_ONE).size).toBe(0);
  });

  it('leaves glyphs LiteParse may write otherwise (a byte out of printable ASCII, a grave accent or left quote), not a quote it writes straight', () => {
    const pdf = pagePdf("BT /F0 10 Tf 100 700 Td 2.5 Tc (,\\214)Tj 0 Tc 20 0 Td (x)Tj 2.5 Tc 10 0 Td (`s)Tj 0 Tc 20 0 Td (y)Tj ET");
    expect(charSpacedRuns(pdf, PAGE_ONE).size).toBe(0);
    const quote = pagePdf("BT /F0 10 Tf 100 700 Td (like)Tj 2.5 Tc 20 0 Td (e')Tj 0 Tc 10 0 Td (PIPE')Tj ET");
    expect(charSpacedRuns(quote, PAGE_ONE).get(1)).toEqual([expect.objectContaining({ text: "e'", partsAfter: [0] })]);
  });

  it("parts nothing at the thin space groff sets round a quoted character (1/6 em: `('.')`)", () => {
    const pdf = pagePdf("BT /F0 10 Tf 100 700 Td (a dot)Tj 1.666 Tc 30 0 Td ('.)Tj 0 Tc 10 0 Td (x)Tj ET");
    expect(charSpacedRuns(pdf, PAGE_ONE).size).toBe(0);
  });

  it('finds a space drawn with its width taken back by the word spacing: a bold pair kerned (`--rev erse`)', () => {
    const pdf = pagePdf('BT /F0 10 Tf 120 700 Td (--r)Tj -0.15 Tc 15.66 0 Td -2.3 Tw (ev e)Tj 0 Tc 0 Tw 14 0 Td (rse)Tj ET');
    expect(charSpacedRuns(pdf, PAGE_ONE).get(1)).toEqual([expect.objectContaining({ text: 'ev e', partsAfter: [], joinsAt: [2] })]);
    // A word space of ordinary width stays one.
    const plain = pagePdf('BT /F0 10 Tf 120 700 Td -0.05 Tw (two words)Tj ET');
    expect(charSpacedRuns(plain, PAGE_ONE).size).toBe(0);
  });

  it('reads only the pages asked for, and nothing of a rotated page or of a file it cannot read in the clear', () => {
    const content = 'BT /F0 10 Tf 100 700 Td 2.5 Tc (,p)Tj 0 Tc 10 0 Td (x)Tj ET';
    expect(charSpacedRuns(pagePdf(content), new Set()).size).toBe(0);
    expect(charSpacedRuns(pagePdf(content, '/MediaBox [0 0 612 792] /Rotate 90'), PAGE_ONE).size).toBe(0);
    expect(charSpacedRuns(new TextEncoder().encode('%PDF-1.7\nnot a pdf'), PAGE_ONE).size).toBe(0);
  });

  it('skips an inline image whose data holds what looks like operators', () => {
    const pdf = pagePdf('q BI /W 2 /H 1 /CS /G /BPC 8 ID \x00Tc 9 Tc\xff EI Q BT /F0 10 Tf 100 700 Td 2.5 Tc (,p)Tj 0 Tc 10 0 Td (x)Tj ET');
    expect(charSpacedRuns(pdf, PAGE_ONE).get(1)).toEqual([expect.objectContaining({ text: ',p', partsAfter: [0] })]);
  });
});
