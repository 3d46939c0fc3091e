/** The little of PDF's object syntax the picture reader takes from a file's bytes: dictionaries and indirect objects. */
import { describe, expect, it } from 'vitest';
import { arrayItems, objectText, parseDictionary } from '../../../src/engine/pdf/figures/pdf-objects.js';

describe('PDF objects read from the file', () => {
  it('parses a dictionary into its entries, nested values whole', () => {
    const entries = parseDictionary('\n<< /Width 640 /ColorSpace [ /ICCBased 12 0 R ] /SMask 9 0 R /DecodeParms << /Predictor 15 /Columns 640 >>\n/Name (a (nested) \\) string) /Filter/FlateDecode >>\n');
    expect(Object.fromEntries(entries!)).toEqual({
      Width: '640',
      ColorSpace: '[ /ICCBased 12 0 R ]',
      SMask: '9 0 R',
      DecodeParms: '<< /Predictor 15 /Columns 640 >>',
      Name: '(a (nested) \\) string)',
      Filter: '/FlateDecode',
    });
    expect(arrayItems('[ /ICCBased 12 0 R ]')).toEqual(['/ICCBased', '12 0 R']);
    expect(parseDictionary('[1 2]')).toBeUndefined();
    expect(parseDictionary('<< /Width 640')).toBeUndefined();
  });

  it('finds the last definition of an object, not one whose number ends with it, and where its stream starts', () => {
    const file = Buffer.from('1 0 obj\n/DeviceGray\nendobj\n11 0 obj\n/DeviceCMYK\nendobj\n1 0 obj\n[/CalRGB << >>]\nendobj\n2 0 obj\n<< /N 3 /Length 4 >>\nstream\nabcd\nendstream\nendobj\n', 'latin1');
    expect(objectText(file, 1, 0)?.text.trim()).toBe('[/CalRGB << >>]');
    const stream = objectText(file, 2, 0)!;
    expect(file.toString('latin1', stream.streamAt, stream.streamAt! + 4)).toBe('abcd');
    expect(objectText(file, 3, 0)).toBeUndefined();
  });
});
