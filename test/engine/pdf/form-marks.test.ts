import { describe, expect, it } from 'vitest';
import { formFieldMarks } from '../../../src/engine/pdf/form-marks.js';
import { item } from './synthetic.js';

const box = (checked: boolean, x = 72) => ({ fieldType: 'checkbox', checked, rect: { x, y: 100, width: 12, height: 12 } });

describe('formFieldMarks', () => {
  it('marks each check box where it stands, ticked or not', () => {
    const marks = formFieldMarks([box(true), box(false, 200)], [item('Yes', 90, 110, { size: 11 })]);
    expect(marks.map((mark) => [mark.str, mark.x0])).toEqual([['☒', 72], ['☐', 200]]);
  });

  it('adds nothing where a glyph of the page already stands over the box (a tick drawn as text)', () => {
    expect(formFieldMarks([box(true)], [item('✔', 73, 110, { size: 11 })])).toEqual([]);
  });

  it('leaves out text fields, buttons and widgets with no size', () => {
    const fields = [
      { fieldType: 'text', rect: { x: 72, y: 100, width: 200, height: 18 } },
      { fieldType: 'pushbutton', rect: { x: 72, y: 140, width: 60, height: 18 } },
      { fieldType: 'checkbox', checked: true, rect: { x: 0, y: 0, width: 0, height: 0 } },
    ];
    expect(formFieldMarks(fields, [])).toEqual([]);
  });
});
