/**
 * A manual page as groff and Ghostscript print one (`groff -man -Tps | ps2pdf`, `test/fixtures/printed/README.md`):
 * Ghostscript sets many word gaps as character spacing, which PDFium reads as no gap (`with -t,blanks`), and groff
 * kerns bold pairs with a space drawn narrow (`--rev erse`); its options are bold terms over their descriptions, each
 * term's first word holding the roman comma after it; its `\-` is the minus glyph, an en dash's width apart.
 */
import { readFileSync } from 'node:fs';
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
