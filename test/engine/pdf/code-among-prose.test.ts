/**
 * A manual's page of examples: short sentences of proportional prose, each followed by an example in a monospaced
 * font, the examples holding most of the page's characters (as GNU Texinfo prints them). The examples are code
 * blocks in their place, the sentences paragraphs; an aligned declaration in an example is no table.
 */
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';

type Part = { prose: string } | { code: string[] };

const PARTS: Part[] = [
  { prose: 'For example, consider a definitions file as follows:' },
  {
    code: [
      'Example { 1 2 3 4 }',
      'DEFINITIONS EXPLICIT TAGS ::=',
      'BEGIN',
      'Signature ::= SEQUENCE {',
      '     r       INTEGER,',
      '     s       INTEGER,',
      '     other   OtherStruct,',
      '     z       INTEGER OPTIONAL,',
      '     version VersionNumber',
      '}',
      'END',
    ],
  },
  { prose: 'And an assignments file as follows:' },
  { code: ['dp Example.Signature', 'r 42', 's 47', 'other.x 66', 'z (NULL)'] },
  { prose: 'Running the command below writes the encoding to a file.' },
];

function manualPagePdf(): Uint8Array {
  const runs: TextRun[] = [];
  let baseline = 90;
  for (const part of PARTS) {
    if ('prose' in part) {
      baseline += 18;
      runs.push({ x: 90, y: 792 - baseline, text: part.prose, size: 10 });
      continue;
    }
    baseline += 6;
    for (const line of part.code) {
      baseline += 12;
      const indent = line.length - line.trimStart().length;
      // Courier's characters are 0.6 em wide: the aligned columns of the declaration stay aligned.
      const cells = line.trim().split(/(\s{2,})/);
      let x = 90 + indent * 6;
      for (const piece of cells) {
        if (piece.trim()) runs.push({ x, y: 792 - baseline, text: piece, size: 10, font: 'mono' });
        x += piece.length * 6;
      }
    }
    baseline += 6;
  }
  return writePdf({ pages: [{ runs }] });
}

describe('code examples between sentences on a manual page', () => {
  it('reads each example as a code block in its place, the declaration included, with no table', async () => {
    const doc = await convertBytes(manualPagePdf());
    const blocks = allBlocks(doc).filter((block) => !block.furniture);
    expect(blocks.filter((block) => block.type === 'table')).toEqual([]);
    const code = (lines: string[]) => ['```', ...lines, '```'].join('\n');
    const expected = PARTS.map((part) => ('prose' in part ? part.prose : code(part.code)));
    expect(mainMarkdown(doc).split('\n\n')).toEqual(expected);
  });
});
