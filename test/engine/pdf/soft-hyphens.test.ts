/**
 * A writer that maps every hyphen glyph to U+00AD, the soft hyphen, in its fonts' ToUnicode maps (cairo's PDFs:
 * pdftocairo's copies, GTK applications' prints): one drawn inside a line is a hyphen; one at a line's end still
 * breaks its word across the lines.
 */
import { describe, expect, it } from 'vitest';
import { assemblePdf } from './scanned-pdfs.js';
import { convertBytes, mainMarkdown } from './helpers.js';

/** One page of lines in a font named as cairo names it, whose ToUnicode map reads the hyphen's code as U+00AD. */
function softHyphenPdf(lines: readonly string[]): Uint8Array {
  const toUnicode = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CMapName /SoftHyphen def /CMapType 2 def',
    '1 begincodespacerange <00> <FF> endcodespacerange',
    '2 beginbfrange <20> <2C> <0020> <2E> <7E> <002E> endbfrange',
    '1 beginbfchar <2D> <00AD> endbfchar',
    'endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
  const text = [
    'BT /F1 18 Tf 72 740 Td (Project Results) Tj ET',
    ...lines.map((line, i) => `BT /F1 11 Tf 72 ${700 - 14 * i} Td (${line}) Tj ET`),
  ].join('\n');
  const widths = Array.from({ length: 95 }, (_, i) => (i === 0 ? 278 : 556)).join(' ');
  const stream = (body: string) => `<< /Length ${Buffer.byteLength(body, 'latin1')} >>\nstream\n${body}\nendstream`;
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    `<< /Type /Font /Subtype /TrueType /BaseFont /CairoFont-0-0 /FirstChar 32 /LastChar 126 /Widths [${widths}] /Encoding /WinAnsiEncoding /ToUnicode 6 0 R >>`,
    stream(text),
    stream(toUnicode),
  ]);
}

describe('soft hyphens a writer drew', () => {
  it('inside a line are hyphens, and one at a line end joins its word', async () => {
    const lines = ['Our e-learning modules follow plan 2021-2-FR02 in every', 'country, from the first package to the last evalu-', 'ation of the modules by their learners.'];
    const markdown = mainMarkdown(await convertBytes(softHyphenPdf(lines), { mode: 'fast' }));
    expect(markdown).toContain('Our e-learning modules follow plan 2021-2-FR02 in every country, from the first package to the last evaluation of the modules');
    expect(markdown).not.toContain('\u00ad');
  });
});
