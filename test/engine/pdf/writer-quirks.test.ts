/**
 * What other writers put in their fonts, as PDFs re-written by cairo (pdftocairo, GTK prints) and Ghostscript
 * (pdfwrite, print-to-PDF drivers) carry it: every hyphen mapped to the soft hyphen U+00AD, a ligature's letters a
 * byte off in the ToUnicode map, and descriptors whose StemV makes PDFium guess a regular font bold and a bold one
 * regular. The text reads as printed, and bold is what the fonts' names say.
 */
import { describe, expect, it } from 'vitest';
import { namedFontPdf, type NamedFont, type NamedFontLine } from './named-font-pdfs.js';
import { convertBytes, mainMarkdown } from './helpers.js';

const body = (lines: readonly string[], top: number, font = 0): NamedFontLine[] => lines.map((text, i) => ({ font, size: 11, x: 72, y: top - 14 * i, text }));

describe('a writer that maps every hyphen to the soft hyphen', () => {
  it('reads one inside a line as a hyphen, and one at a line end joins its word', async () => {
    const lines = ['Our e-learning modules follow plan 2021-2-FR02 in every', 'country, from the first package to the last evalu-', 'ation of the modules by their learners.'];
    const pdf = namedFontPdf([{ name: 'CairoFont-0-0', mapped: { '2D': '00AD' } }], [{ font: 0, size: 18, x: 72, y: 740, text: 'Project Results' }, ...body(lines, 700)]);
    const markdown = mainMarkdown(await convertBytes(pdf, { mode: 'fast' }));
    expect(markdown).toContain('Our e-learning modules follow plan 2021-2-FR02 in every country, from the first package to the last evaluation of the modules');
    expect(markdown).not.toContain('\u00ad');
  });
});

describe("a ligature's letters written a byte off", () => {
  it('reads them as the letters (`昀椀` inside a Latin word is `fi`)', async () => {
    // Code 0x80 draws the ligature; its map says U+6600 U+6900 where `f` `i` (U+0066 U+0069) were meant.
    const lines = ['The \u0080eld trials of the orifice plate were run in the \u0080rst', 'week of the experiment, at the free jet of the tank.'];
    const pdf = namedFontPdf([{ name: 'Lato-Regular', mapped: { '80': '66006900' } }], [{ font: 0, size: 16, x: 72, y: 740, text: 'Free Jet Flow' }, ...body(lines, 700)]);
    const markdown = mainMarkdown(await convertBytes(pdf, { mode: 'fast' }));
    expect(markdown).toContain('The field trials of the orifice plate were run in the first week of the experiment');
    expect(markdown).not.toMatch(/[\u6600\u6900]/u);
  });
});

describe('font weights that contradict the fonts’ names', () => {
  const TEXT = ['The orifice plate was fitted to the side of the tank, and the jet of water', 'leaving it was measured at four distances from the plate, each one twice.'];
  const MORE = ['The flow rate was read from the volume collected in one minute, and the', 'coefficient of discharge followed from the head over the orifice.'];

  /** Two sections, their headings in the second font and their text in the first. */
  const sections = (fonts: NamedFont[]) =>
    convertBytes(
      namedFontPdf(fonts, [
        { font: 1, size: 12, x: 72, y: 740, text: 'Natural dispersal' },
        ...body(TEXT, 716),
        { font: 1, size: 12, x: 72, y: 670, text: 'Measured flow' },
        ...body(MORE, 646),
      ]),
      { mode: 'fast' },
    ).then(mainMarkdown);

  it('leave bold to the names: a bold-named heading over text in a plain-named font whose StemV is high', async () => {
    // Ghostscript's copies: Lato-Bold's StemV 114 (PDFium: weight 570), Calibri's 151 (744).
    const markdown = await sections([{ name: 'Calibri', stemV: 151 }, { name: 'Lato-Bold', stemV: 114 }]);
    expect(markdown).toMatch(/^#+ Natural dispersal$/m);
    expect(markdown).toMatch(/^#+ Measured flow$/m);
    expect(markdown).toContain(`\n\n${TEXT.join(' ')}\n\n`);
    expect(markdown).not.toContain('**');
  });

  it('make no plain face bold that has broad stems, where no name contradicts them', async () => {
    // Lucida Sans's StemV 126 (PDFium: 630) beside a bold face's 140 (700).
    const markdown = await sections([{ name: 'LucidaSansUnicode', stemV: 126 }, { name: 'BookmanOldStyle-Bold', stemV: 140 }]);
    expect(markdown).toMatch(/^#+ Natural dispersal$/m);
    expect(markdown).toMatch(/^#+ Measured flow$/m);
    expect(markdown).not.toContain('**');
  });

  it('still tell bold where the names say nothing and no name contradicts the weights', async () => {
    // A family whose styles are numbered (`YoonGothicPro780`): its weight is all that tells its bold style.
    const fonts = [{ name: 'YoonGothicPro740', stemV: 80 }, { name: 'YoonGothicPro780', stemV: 140 }];
    const lines: NamedFontLine[] = [{ font: 1, size: 11, x: 72, y: 740, text: 'Natural dispersal' }, ...body(TEXT, 716), ...body(MORE, 670)];
    const markdown = mainMarkdown(await convertBytes(namedFontPdf(fonts, lines), { mode: 'fast' }));
    expect(markdown).toMatch(/^#+ Natural dispersal$/m);
  });
});

describe('a family whose plain and bold faces weigh alike', () => {
  it('tells bold by the names (NanumMyeongjo 712 beside NanumMyeongjoBold 716 in Ghostscript’s copies)', async () => {
    const fonts = [{ name: 'NanumMyeongjo', stemV: 143 }, { name: 'NanumMyeongjoBold', stemV: 144 }];
    const text = ['The survey counted the residents of every district at the end of each year and', 'compared the two counts, district by district, to find where the town grew.'];
    const lines: NamedFontLine[] = [{ font: 1, size: 12, x: 72, y: 740, text: 'Population by district' }, ...body(text, 716)];
    const markdown = mainMarkdown(await convertBytes(namedFontPdf(fonts, lines), { mode: 'fast' }));
    expect(markdown).toMatch(/^#+ Population by district$/m);
    expect(markdown).toContain(text.join(' '));
    expect(markdown).not.toContain('**');
  });
});

describe("a table's cells as the other reader gives them", () => {
  it('have their ligatures a byte off read as letters too', async () => {
    const rows = [
      ['ID', 'Criterion', 'Owner'],
      ['A-01', 'Every record shows the same \u0080elds', 'Data team'],
      ['A-02', 'Reports open in under two seconds', 'Platform'],
      ['A-03', 'Search \u0080nds every migrated record', 'Search team'],
      ['A-04', 'Exports keep the original \u0080le names', 'Data team'],
    ];
    const lines = rows.flatMap((row, r) => row.map((text, c): NamedFontLine => ({ font: 0, size: 10, x: [72, 150, 430][c]!, y: 700 - 20 * r, text })));
    const pdf = namedFontPdf([{ name: 'Lato-Regular', mapped: { '80': '66006900' } }], [{ font: 0, size: 16, x: 72, y: 740, text: 'Acceptance criteria' }, ...lines]);
    const markdown = mainMarkdown(await convertBytes(pdf, { mode: 'fast' }));
    expect(markdown).toContain('| A-01 | Every record shows the same fields | Data team |');
    expect(markdown).toContain('Search finds every migrated record');
    expect(markdown).not.toMatch(/[\u6600\u6900]/u);
  });
});
