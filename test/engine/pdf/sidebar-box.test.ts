/**
 * A shaded box of a few short lines beside a page's one column of prose ("Did you know?"), a tenth of the page's
 * text: the column is read whole, then the box, never line by line across the channel between them.
 */
import { describe, expect, it } from 'vitest';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { convertBytes, mainMarkdown } from './helpers.js';

/** A column's paragraphs, set ragged right in a measure of about 300 points of 11-point Helvetica. */
const BODY = [
  ['The garden opened in April on the old', 'railway land behind the station, after', 'two years of planning with the council', 'and the residents of the three streets', 'around it.'],
  ['Every plot is tended by a family or a', 'school class, and the tools are shared', 'from a shed near the gate that opens on', 'Saturday mornings for the season.'],
  ['Water comes from the roofs of the', 'nearby houses, collected in six tanks', 'that the volunteers built over the', 'winter, so that no tap water is used.'],
  ['New members are welcome at any time of', 'the year and can join the waiting list', 'at the open day in the first week of', 'every month.'],
  ['A small grant from the county paid for', 'the fence along the railway side and for', 'the paths between the beds, which are', 'wide enough for a wheelchair.'],
  ['The committee meets on the last Monday', 'of the month in the church hall, and its', 'minutes are pinned to the shed door for', 'anyone who could not come.'],
  ['Next year the group hopes to add a pond', 'and a meadow for bees at the far end of', 'the site, where the ground is too wet', 'for vegetables.'],
];
const BOX = ['Volunteers planted more', 'than four hundred trees', 'last spring, and the', 'harvest fed sixty', 'families through the', 'winter months.'];

function sidebarPdf(): Uint8Array {
  const runs: TextRun[] = [{ x: 72, y: 720, text: 'Community Garden Project', size: 18, font: 'bold' }];
  let y = 690;
  for (const paragraph of BODY) {
    for (const line of paragraph) {
      runs.push({ x: 72, y, text: line, size: 11 });
      y -= 13.7;
    }
    y -= 7.3;
  }
  runs.push({ x: 410, y: 660, text: 'Did you know?', size: 12, font: 'bold' });
  BOX.forEach((line, i) => runs.push({ x: 410, y: 641.5 - 12.6 * i, text: line, size: 10 }));
  // The box's shading, behind its text.
  return writePdf({ pages: [{ runs, graphics: '0.9 0.95 1 rg 400 540 150 140 re f 0 g' }] });
}

describe('a shaded box beside one column of prose', () => {
  it('is read after the column, each paragraph of the column whole', async () => {
    const markdown = mainMarkdown(await convertBytes(sidebarPdf()));
    for (const paragraph of BODY) expect(markdown).toContain(paragraph.join(' '));
    expect(markdown).toContain(BOX.join(' '));
    expect(markdown.indexOf('Did you know?')).toBeGreaterThan(markdown.indexOf(BODY.at(-1)!.join(' ')));
  });
});
