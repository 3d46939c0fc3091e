/**
 * A drop cap (a paragraph's first letter set three lines high, its first lines set round it): read as the first
 * letter of its word, the paragraph whole; a big letter before a word of its own (a "Q" before a question) is
 * read before it with a space, its lines whole too.
 */
import { describe, expect, it } from 'vitest';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { convertBytes, mainMarkdown } from './helpers.js';

const ROUND = ['he river came back to the valley in the spring,', 'after three dry years, and with it came the birds', 'and the fishermen who had left for the coast.'];
const UNDER = ['Nobody in the village had expected it so soon. The', 'engineers had said that the new dam upstream would', 'hold the water for a decade at least.'];

/** A 44-point letter at the left of the first three lines, which start after it; the paragraph goes on under it. */
function dropCapPdf(letter: string, round: readonly string[]): Uint8Array {
  const runs: TextRun[] = [
    { x: 72, y: 740, text: 'The River Returns', size: 20, font: 'bold' },
    { x: 72, y: 676, text: letter, size: 44, font: 'bold' },
    ...round.map((text, i): TextRun => ({ x: 104, y: 700 - 14 * i, text, size: 11 })),
    ...UNDER.map((text, i): TextRun => ({ x: 72, y: 658 - 14 * i, text, size: 11 })),
  ];
  return writePdf({ pages: [{ runs }] });
}

describe('a drop cap', () => {
  it('is the first letter of its word, and its paragraph is read whole', async () => {
    const markdown = mainMarkdown(await convertBytes(dropCapPdf('T', ROUND)));
    expect(markdown).toContain(`T${[...ROUND, ...UNDER].join(' ')}`);
  });

  it('a big letter before a word of its own is read before it, a space between them', async () => {
    const question = ['How do the engineers measure the river', 'at the new dam, and how often do they', 'send their readings to the village?'];
    const markdown = mainMarkdown(await convertBytes(dropCapPdf('Q', question)));
    expect(markdown).toContain(`Q ${question.join(' ')}`);
  });
});
