import { describe, expect, it } from 'vitest';
import type { FormField } from '../../../src/engine/pdf/form-marks.js';
import { fillFormFields, PASSWORD_MASK } from '../../../src/engine/pdf/form-values.js';
import type { PdfTextItem } from '../../../src/engine/pdf/types.js';
import { item } from './synthetic.js';

const PASSWORD = 1 << 13;
const field = (value: string, extra: Partial<FormField> = {}): FormField => ({ fieldType: 'text', value, rect: { x: 160, y: 100, width: 250, height: 20 }, ...extra });
const label = () => item('Full name', 50, 114, { size: 11 });

/** The page's items once its fields are read into them. */
function filled(fields: FormField[], items: PdfTextItem[]): PdfTextItem[] {
  fillFormFields(fields, items);
  return items;
}

describe('fillFormFields', () => {
  it("reads a value no text shows in its box, in the body's type, on its label's line", () => {
    const [, value, ...rest] = filled([field('Ada Lovelace')], [label()]);
    expect(rest).toEqual([]);
    expect(value).toMatchObject({ str: 'Ada Lovelace', size: 11 });
    expect(value!.x0).toBeGreaterThan(160);
    expect(Math.abs(value!.baseline - 114)).toBeLessThan(3);
  });

  it('adds nothing where the page draws the value, and sets that text no bigger than the body', () => {
    const drawn = item('Ada Lovelace', 162, 115, { size: 15 });
    expect(filled([field('Ada Lovelace')], [label(), drawn])).toEqual([label(), { ...drawn, size: 11 }]);
  });

  it("reads a multi-line value line by line, and a list box's chosen options in place of all it draws", () => {
    const multi = field('First line\nSecond line', { fieldFlags: 1 << 12, rect: { x: 160, y: 100, width: 300, height: 60 } });
    const list: FormField = { fieldType: 'listbox', value: 'Chess', selectedOptions: ['Chess', 'Music'], rect: { x: 160, y: 200, width: 250, height: 20 } };
    const options = ['Chess', 'Hiking', 'Music'].map((option, i) => item(option, 162, 205 + 5 * i, { size: 5 }));
    const items = filled([multi, list], [label(), ...options]);
    expect(items.map((value) => value.str)).toEqual(['Full name', 'First line', 'Second line', 'Chess, Music']);
    expect(items[2]!.baseline).toBeGreaterThan(items[1]!.baseline);
  });

  it("never reads a password: a mask of one length in its place, the viewer's own mask left as it is", () => {
    expect(filled([field('hunter2', { fieldFlags: PASSWORD })], [label()]).map((value) => value.str)).toEqual(['Full name', PASSWORD_MASK]);
    const drawn = filled([field('hunter2', { fieldFlags: PASSWORD })], [label(), item('hunter2', 162, 114)]);
    expect(drawn.map((value) => value.str)).toEqual(['Full name', PASSWORD_MASK]);
    expect(filled([field('hunter2', { fieldFlags: PASSWORD })], [label(), item('*******', 162, 114)]).map((value) => value.str)).toEqual(['Full name', '*******']);
    expect(filled([field('', { fieldFlags: PASSWORD }), field('  ')], [label()])).toEqual([label()]);
  });
});
