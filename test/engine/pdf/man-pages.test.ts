/**
 * A manual page as groff and Ghostscript print one (`groff -man -Tps | ps2pdf`, `test/fixtures/printed/README.md`):
 * Ghostscript sets many word gaps as character spacing, which PDFium reads as no gap (`with -t,blanks`), and groff
 * kerns bold pairs with a space drawn narrow (`--rev erse`); its options are bold terms over their descriptions, each
 * term's first word holding the roman comma after it; its `\-` is the minus glyph, an en dash's width apart.
 */
import { readFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes } from './helpers.js';

function printed(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../../fixtures/printed/${name}`, import.meta.url)));
}

describe('a man page printed by groff and Ghostscript', () => {
  it('reads every word gap set as character spacing as a space, and adds none the page does not have', async () => {
    const doc = await convertBytes(printed('sorter-manual.pdf'), { mode: 'fast' });
    const text = allBlocks(doc)
      .map((block) => block.markdown)
      .join('\n');
    for (const phrase of [
      'when finding the start of a key, and when finding its end; with -t, blanks are never skipped',
      'with -k, mark the part of each line used',
      'with -z, read names ended by a zero byte',
      'with -s, lines whose keys compare equal keep their input order, and the last resort',
      'with -c, check for strict ordering instead',
    ]) {
      expect(text).toContain(phrase);
    }
    // The source has no space here: none is made.
    expect(text).toContain('location and type (-k)once given');
  });

  it('reads a bold pair kerned with a space drawn narrow as one word', async () => {
    const doc = await convertBytes(printed('sorter-manual.pdf'), { mode: 'fast' });
    const markdown = allBlocks(doc).map((block) => block.markdown);
    expect(markdown).toContain('### -r, --reverse');
    expect(markdown.join('\n')).not.toContain('rev erse');
  });

  it('makes each option a heading over its description, whatever the comma after its first word', async () => {
    const doc = await convertBytes(printed('sorter-manual.pdf'), { mode: 'fast' });
    const headings = allBlocks(doc)
      .map((block) => block.markdown)
      .filter((markdown) => markdown.startsWith('#'));
    expect(headings).toEqual([
      '## NAME',
      '## SYNOPSIS',
      '## DESCRIPTION',
      '### -b, --ignore-leading-blanks',
      '### --debug',
      '### --files0-from=F',
      '### -f, --ignore-case',
      '### -k, --key=KEYDEF',
      '### -n, --numeric-sort',
      '### -r, --reverse',
      '### -t, --field-separator=SEP',
      '### -u, --unique',
      '## EXAMPLES',
      '## AUTHOR',
    ]);
  });

  it("writes groff's minus glyph as the hyphen-minus it stands for, never as an en dash", async () => {
    const doc = await convertBytes(printed('sorter-manual.pdf'), { mode: 'fast' });
    const text = allBlocks(doc)
      .map((block) => block.markdown)
      .join('\n');
    expect(text).toContain('sorter - sort lines of text files by fields, keys and locales');
    expect(text).toContain('the transition from non-blank to blank characters');
    expect(text).toContain('Sort a comma-separated file');
    expect(text).not.toMatch(/[–—]/u);
  });
});

/**
 * Options set as a man page sets them: a long term on a line of its own over its text, a short one with its text
 * beside it, where the text starts; entries 16.8 pt apart, their lines 12.
 */
async function optionListPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  const roman = await pdf.embedFont(StandardFonts.TimesRoman);
  const bold = await pdf.embedFont(StandardFonts.TimesRomanBold);
  const entries: [string, string][] = [
    ['-a, --all', 'do not ignore entries starting with a dot'],
    ['-c', 'with -lt, sort by and show the change time'],
    ['--color', 'color the output when the terminal allows it'],
    ['-f', 'list all entries in directory order'],
    ['-k, --kibibytes', 'default to 1024-byte blocks for file system usage; used only with -s and per directory totals'],
    ['-l', 'use a long listing format'],
    ['-L, --dereference', 'show information for the file a symbolic link references'],
    ['-m', 'fill width with a comma separated list of entries'],
  ];
  let y = 700;
  for (const [term, text] of entries) {
    page.drawText(term, { x: 108, y, size: 10, font: bold });
    if (term.length > 2) y -= 12;
    page.drawText(text, { x: 144, y, size: 10, font: roman });
    y -= 16.8;
  }
  return pdf.save();
}

describe('a list of options, short terms beside their text', () => {
  it('starts each entry at its term, after a description long enough to have held it', async () => {
    const paragraphs = allBlocks(await convertBytes(await optionListPdf(), { mode: 'fast' })).map((block) => block.markdown);
    expect(paragraphs).toContain('default to 1024-byte blocks for file system usage; used only with -s and per directory totals');
    expect(paragraphs).toContain('-l use a long listing format');
  });
});
