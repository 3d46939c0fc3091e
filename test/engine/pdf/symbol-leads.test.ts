/**
 * A paragraph led by a lone symbol no list marker reads (Word's arrow bullet, `⮚`, `»`), its first line in bold
 * and its wrapped lines set in under the words: one paragraph, not a bold heading over the rest of its sentence.
 */
import { describe, expect, it } from 'vitest';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { convertBytes, mainMarkdown } from './helpers.js';

const BOLD_LINE = 'Greenway - The Riverside Walking Framework for every town council, responds to';
const WRAPPED = ['the growing need for people to walk, cycle and meet along the river in their', 'own town, safely, in every season of the year.'];
const AFTER = 'Greenway is a reference framework for towns that want to open their rivers to walkers.';

describe('a line led by a lone symbol', () => {
  it('in bold, its wrapped lines set in under its words, is one paragraph with them', async () => {
    const runs: TextRun[] = [
      { x: 72, y: 740, text: 'Walking by the River', size: 18, font: 'bold' },
      { x: 90, y: 700, text: '\u00bb', size: 11 },
      { x: 104, y: 700, text: BOLD_LINE, size: 11, font: 'bold' },
      ...WRAPPED.map((text, i): TextRun => ({ x: 104, y: 686 - 14 * i, text, size: 11 })),
      { x: 72, y: 636, text: AFTER, size: 11 },
    ];
    const markdown = mainMarkdown(await convertBytes(writePdf({ pages: [{ runs }] }), { mode: 'fast' }));
    expect(markdown).toContain(`\u00bb ${BOLD_LINE} ${WRAPPED.join(' ')}`);
    expect(markdown).not.toMatch(/^#+ .*Greenway/m);
  });
});
