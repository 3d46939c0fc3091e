/**
 * Inline code in running text (`test/fixtures/printed/inline-code.pdf`: groff's `ms` macros printed through
 * Ghostscript): LiteParse joins a line's runs into one item named after its first font, so a line opened by a path
 * in Courier read as monospaced through. Two such lines made a code block in the middle of a sentence, and the
 * paragraph after a code block, opened by a command's name, was taken into it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inlinePitch, monospacePitches, wordsOffPitch } from '../../../src/engine/pdf/liteparse/monospace-runs.js';
import { allBlocks, convertBytes } from './helpers.js';

function printed(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../../fixtures/printed/${name}`, import.meta.url)));
}

describe('a specification with inline code, printed by groff and Ghostscript', () => {
  it('keeps lines opened by a path in their sentence', async () => {
    const blocks = allBlocks(await convertBytes(printed('inline-code.pdf'), { mode: 'fast' }));
    const paragraph = blocks.find((block) => block.markdown.startsWith('Each program that wishes'));
    expect(paragraph?.type).toBe('text');
    expect(paragraph?.label).toBeNull();
    expect(paragraph?.markdown).toContain(
      'loading the file means to load /usr/share/settings/app.conf, /usr/local/share/settings/app.conf, and ',
    );
    expect(paragraph?.markdown).toContain('(if they exist, and in this order). Settings found in a later file replace those found in earlier files');
    expect(blocks.filter((block) => block.label === 'code')[0]?.markdown).toBe('```\n[window]\nwidth = 800\nheight = 600\n```');
  });

  it("keeps a hex dump whole, its columns of bytes lined up down its lines, on a page of proportional text", async () => {
    const blocks = allBlocks(await convertBytes(printed('inline-code.pdf'), { mode: 'fast' }));
    const code = blocks.filter((block) => block.label === 'code').map((block) => block.markdown);
    expect(code).toContain(
      [
        '```',
        '00000000  53 45 54 54 49 4e 47 53  00 0a 5b 77 69 6e 64 6f  |SETTINGS..[windo|',
        '00000010  77 5d 0a 77 69 64 74 68  3d 38 30 30 0a 68 65 69  |w].width=800.hei|',
        '00000020  67 68 74 3d 36 30 30 0a  00 00 00 00 00 00 00 00  |ght=600.........|',
        '```',
      ].join('\n'),
    );
  });

  it("reads a listing that goes on over a page of its own as code, not as a typewriter page's table", async () => {
    const doc = await convertBytes(printed('inline-code.pdf'), { mode: 'fast' });
    const page2 = doc.pages.find((page) => page.pageNumber === 2)!.blocks.filter((block) => !block.furniture);
    expect(page2.filter((block) => block.type === 'table')).toEqual([]);
    const code = page2.filter((block) => block.label === 'code').map((block) => block.markdown).join('\n');
    for (const line of ['NodeRecord2:', '8   CARD64  NODE_WEIGHT', 'ParentRecord5:', '4   CARD32  INDEX_SIZE']) expect(code).toContain(line);
    // The listing's last line at the foot of page 1 is the listing's, not a running footer.
    const page1 = doc.pages.find((page) => page.pageNumber === 1)!.blocks;
    expect(page1.filter((block) => block.label === 'code').at(-1)?.markdown).toMatch(/2 {3}CARD16 {2}SIZE_ENTRY\n\nChildRecord1:\n```$/);
    expect(page1.some((block) => block.furniture === true && block.markdown.includes('Record'))).toBe(false);
    // Ghostscript's Courier weighs 700: a record's name in it is no bold heading.
    expect(allBlocks(doc).filter((block) => block.type === 'section_header').map((block) => block.markdown)).toEqual([
      '## Storing Settings',
      '### 1. Where settings live',
      '### 2. Features',
      '### 3. The compiled file',
      "### 4. The file's layout",
      '### 5. Merging by hand',
    ]);
  });

  it('reads the paragraph after a code block as prose when a command name opens it', async () => {
    const blocks = allBlocks(await convertBytes(printed('inline-code.pdf'), { mode: 'fast' }));
    const index = blocks.findIndex((block) => block.label === 'code');
    expect(blocks[index + 1]?.label).toBeNull();
    expect(blocks[index + 1]?.markdown).toBe(
      'settings-merge is passed the folder holding the files as its only argument. It reads all the files in it, merges what they hold, and writes the result beside them.',
    );
  });

  it('reads the paragraphs round a command line running past the margin whole, not a line each', async () => {
    const blocks = allBlocks(await convertBytes(printed('inline-code.pdf'), { mode: 'fast' }));
    const texts = blocks.map((block) => block.markdown);
    expect(texts).toContain(
      'When the merged file must be made again without starting the program, for example on a machine where the program is not installed, the tool that ships with it can be run by hand, with the folders to read given in the order in which their files replace one another, the last one winning over all the others before it:',
    );
    expect(texts.find((text) => text.startsWith('The tool writes the merged file'))).toMatch(/never a file half written by the tool; a failed run leaves the old file where it was and says which of the files could not be read\.$/);
  });
});

describe('a guide with inline code, printed by LibreOffice', () => {
  it("reads the paragraph after a listing as prose when a setting's name opens it", async () => {
    const blocks = allBlocks(await convertBytes(printed('api-guide.pdf'), { mode: 'fast' }));
    const index = blocks.findIndex((block) => block.label === 'code');
    expect(blocks[index]?.markdown).toContain('token_file = "~/.config/client/token"\n```');
    expect(blocks[index + 1]?.label).toBeNull();
    expect(blocks[index + 1]?.markdown).toBe(
      'timeout is given in seconds. The token is read from the file named by token_file, never from the settings file itself, so that the settings can be shared without sharing the token.',
    );
  });
});

describe('words told from a monospaced font by its pitch', () => {
  // Courier at 10 pt: 6 pt a character.
  const courier = (texts: string[], widths: number[]) => wordsOffPitch(widths.map((width) => ({ width })), texts, texts.length, 6);

  it('leaves an item monospaced through as it is', () => {
    expect(courier(['width', '=', '800;'], [30, 6, 24])).toBeUndefined();
  });

  it('tells the proportional words after a run of code', () => {
    expect(courier(['/etc/app.conf', '(if', 'they', 'exist)'], [78, 10, 17, 21.2])).toEqual([false, true, true, true]);
  });

  it('takes punctuation in the text type after a word of code as the code', () => {
    // `popcnt,` and `clflush,` with their commas in Times (2.5 pt), `and` in Times.
    expect(courier(['lzcnt,', 'popcnt,', 'clflush,', 'and'], [32.5, 38.5, 44.5, 14.4])).toEqual([false, false, false, true]);
  });

  it('reads code set on a wider grid than its glyphs (a fixed-column listing) by its first word', () => {
    // Glyphs 0.525 em wide set every 0.6 em: every word wider than its glyphs, by the same pitch.
    expect(wordsOffPitch([{ width: 37.9 }, { width: 21.4 }, { width: 21.4 }], ['console', '.log', '(add'], 3, 4.71)).toBeUndefined();
  });

  it("learns a font's pitch from its items' first runs, and leaves type larger than the text's alone", () => {
    const item = (fontName: string, text: string, textWidth: number, size = 10) => ({
      fontName,
      text,
      textWidth,
      charCodes: [...text].map((c) => c.charCodeAt(0)),
      size,
    });
    const pages = [
      {
        textItems: [
          item('Courier', '/etc/app.conf', 78),
          item('Courier', 'width', 30),
          item('Courier', 'x,', 10), // a comma in Times after the code: off the pitch, outvoted
          item('Times-Roman', 'The settings are read at start-up, in order.', 190),
          item('Times-Roman', 'Each file replaces the ones before it.', 160),
        ],
      },
    ];
    const read = monospacePitches(pages, (name) => name === 'Courier', (it) => it.size);
    expect(read.pitches.get('Courier')).toBe(0.6);
    expect(read.bodySize).toBe(10);
    expect(inlinePitch(read, 'Courier', 10)).toBe(6);
    // A function's signature set larger than the text over its description stays code.
    expect(inlinePitch(read, 'Courier', 12)).toBeUndefined();
    expect(inlinePitch(read, 'Times-Roman', 10)).toBeUndefined();
  });
});
