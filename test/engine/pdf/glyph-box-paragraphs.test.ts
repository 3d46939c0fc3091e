/**
 * Paragraphs of a narrow column LibreOffice printed (test/fixtures/printed/narrow-column-notes.pdf): its word boxes
 * are cut to the glyphs, so a line holding `g`, `p` or `y` has a box reaching a fifth of an em lower than one
 * without. Each paragraph comes out whole, its lines' pitch read from the words standing on the line, not from
 * their boxes (the first paragraph was cut after its second line: `… the small hall at the` over `library …`,
 * whose `y` made the pitch look wider); and paragraphs set 0.25 cm apart stay apart where the first of them has one
 * line at the top of a column (measured against the column's usual pitch).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateParseOptions } from '../../../src/contract/validation.js';
import { parseDocument } from '../../../src/engine/engine.js';

const PARAGRAPHS = [
  'The spring meeting will be held in the small hall at the library on the first Tuesday of April, starting at seven.',
  'Members who wish to bring a guest should tell the secretary before the end of March, so that enough chairs can be set out.',
  "Subscriptions for the coming year are now due and may be paid at the meeting or by transfer to the club's account.",
  'Our thanks go to all who helped at the autumn fair, which raised more money for the roof fund than in any year before.',
];

describe('a narrow column printed by LibreOffice, its word boxes cut to the glyphs', () => {
  it('reads each paragraph whole and apart from the next', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/narrow-column-notes.pdf', import.meta.url)));
    const validation = validateParseOptions({ parsers: [{ type: 'pdf', mode: 'fast' }] });
    if (!validation.ok) throw new Error('invalid options');
    const data = await parseDocument({ bytes, fileName: 'narrow-column-notes.pdf', options: validation.options });
    expect(data.markdown?.trim().split('\n\n')).toEqual(['# Club news', ...PARAGRAPHS]);
  });
});
