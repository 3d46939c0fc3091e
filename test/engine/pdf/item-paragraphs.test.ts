/**
 * A manual's numbered steps, a step with a note under it: the note set at the step's text indent, a paragraph's
 * space under the step, and the next step after it. The note is a paragraph of its step, and the steps one list.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes } from './helpers.js';
import { raggedLines } from './ragged-lines.js';

const STEPS: [string, string?][] = [
  ['Switch off the power at the consumer unit before you start. Check that the circuit is dead with a voltage tester.', 'If you are not sure which circuit supplies the light, switch off the main switch.'],
  ['Remove the old fitting and disconnect its wires, noting which terminal each wire was connected to.'],
  ['Connect the new fitting, brown to L, blue to N and green and yellow to the earth terminal.', 'Tighten each screw firmly and check that no bare copper is visible outside the terminals.'],
  ['Fit the cover and switch the power back on.'],
];

async function stepsPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.TimesRoman);
  const bold = await pdf.embedFont(StandardFonts.TimesRomanBold);
  const page = pdf.addPage([612, 792]);
  let y = 700;
  page.drawText('Installation', { x: 72, y, size: 14, font: bold });
  y -= 24;
  STEPS.forEach(([step, note], i) => {
    page.drawText(`${i + 1}.`, { x: 72, y, size: 11, font: regular });
    for (const paragraph of note ? [step, note] : [step]) {
      for (const line of raggedLines(paragraph, regular, 11, 440)) {
        page.drawText(line, { x: 90, y, size: 11, font: regular });
        y -= 14;
      }
      y -= 6;
    }
    y -= 2;
  });
  return pdf.save();
}

describe('a numbered step with a note under it', () => {
  it('reads the note as a paragraph of its step, and the steps as one list', async () => {
    const doc = await convertBytes(await stepsPdf(), { mode: 'fast' });
    const lists = allBlocks(doc).filter((block) => block.label === 'list');
    expect(lists).toHaveLength(1);
    expect(lists[0]!.markdown).toBe(
      [
        `1. ${STEPS[0]![0]}`,
        '',
        `   ${STEPS[0]![1]}`,
        `2. ${STEPS[1]![0]}`,
        `3. ${STEPS[2]![0]}`,
        '',
        `   ${STEPS[2]![1]}`,
        `4. ${STEPS[3]![0]}`,
      ].join('\n'),
    );
  });
});
