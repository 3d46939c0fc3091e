import { describe, expect, it } from 'vitest';
import { buildBlocks } from '../../../src/engine/pdf/paragraphs.js';
import { buildLines } from '../../../src/engine/pdf/lines.js';
import { paragraph } from './synthetic.js';

/** 300 pt wide; the synthetic items are 5 pt a character: 60 characters fill a line. */
const REGION = { x0: 50, x1: 350 };

function texts(lines: string[]): string[] {
  return buildBlocks(buildLines(paragraph(lines, 50, 100)), REGION).map((block) => block.text);
}

describe("a function's parameters, each opening with its name and a colon", () => {
  it('reads each parameter as a paragraph of its own, a wrapped description whole, and the text after them', () => {
    const entries = [
      'file: specify the path of the file.',
      'definitions: return the pointer to the structure made from',
      'the declarations in the file.',
      'error desc: return the error description.',
      'Function used to start the parse of the file.',
    ];
    expect(texts(entries)).toEqual([
      'file: specify the path of the file.',
      'definitions: return the pointer to the structure made from the declarations in the file.',
      'error desc: return the error description.',
      'Function used to start the parse of the file.',
    ]);
  });

  it('reads on where the line above was full, or the paragraph opens with no term', () => {
    // 60 characters: the next line's term would not have fit after it.
    expect(texts(['file: the worker reads each document once and keeps the file.', 'note: it is written once.'])).toHaveLength(1);
    expect(texts(['The worker reads each file once.', 'note: it is written once.'])).toHaveLength(1);
  });
});
