/**
 * A newspaper's page: narrow columns set ragged right, paragraphs of several sentences, numbered paragraphs with no
 * hanging indent, a paragraph whose first line alone stands at the foot of a column. A sentence that ends at a
 * line's end, short of the column's edge only because the next word is long, ends no paragraph; generated PDFs
 * through the local engine.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOptions } from '../../../src/backend/upload-checks.js';
import { LocalParseEngine } from '../../../src/engine/local-engine.js';
import { raggedLines } from './ragged-lines.js';

const SENTENCES = [
  'The council reviewed the proposal for the new library in its October meeting and asked the planning office to report on the costs of each site before the budget is set.',
  'Residents who wrote to the council were mostly in favour of the riverside site, which is close to the schools and the bus station, though some raised the question of parking.',
  'A second consultation will open in the spring, with drawings of both designs on show in the town hall and online, and a survey that anyone living in the district may answer.',
  'The final decision rests with the full council, which meets in June; if the riverside site is chosen, building could begin the following year and the library open two years later.',
];
const SIZE = 9.5;
const LEADING = 11.5;
const COLUMN = 160;
const GUTTER = 18;

/** Paragraphs in columns of `COLUMN` points, left to right, top to bottom of the page. */
async function columnsPdf(paragraphs: readonly string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  const page = pdf.addPage([612, 792]);
  let column = 0;
  let y = 720;
  for (const paragraph of paragraphs) {
    for (const line of raggedLines(paragraph, font, SIZE, COLUMN)) {
      if (y < 72) {
        column++;
        y = 720;
      }
      page.drawText(line, { x: 54 + column * (COLUMN + GUTTER), y, size: SIZE, font });
      y -= LEADING;
    }
    y -= 6;
  }
  return pdf.save();
}

/** Four sentences each, in turn from the `start`th: each paragraph's sentences wrap at other places. */
const PROSE = Array.from({ length: 9 }, (_, start) => [0, 1, 2, 3].map((k) => SENTENCES[(start + k) % 4]).join(' '));
/** Numbered paragraphs of two sentences, the number at the paragraph's start and its lines flush under it. */
const NUMBERED = Array.from({ length: 24 }, (_, i) => `${i + 1}. ${SENTENCES[i % 4]} ${SENTENCES[(i + 1) % 4]}`);

describe('narrow columns set ragged right', () => {
  let engine: LocalParseEngine;
  beforeAll(() => {
    engine = new LocalParseEngine({ size: 1 });
  });
  afterAll(async () => {
    await engine.close();
  });

  const markdownOf = async (bytes: Uint8Array) => (await engine.parseBytes(bytes, 'gazette.pdf', checkOptions({ parsers: [{ type: 'pdf', mode: 'fast' }] }))).markdown ?? '';

  it('reads each paragraph whole, across the sentences its lines end on and across the column break', async () => {
    const markdown = await markdownOf(await columnsPdf(PROSE));
    const read = markdown.split('\n\n');
    for (const paragraph of PROSE) expect(read).toContain(paragraph);
    expect(read).toHaveLength(PROSE.length);
  });

  it('reads each numbered paragraph as one item of one list', async () => {
    const markdown = await markdownOf(await columnsPdf(NUMBERED));
    const items = markdown.split('\n').filter((line) => line !== '');
    expect(items).toEqual(NUMBERED);
  });
});
