/**
 * Text encoded twice (UTF-8 read as windows-1252 or Latin-1 and saved again as UTF-8): web pages and CSV files come
 * out with the characters meant, and a warning says so; text that only looks alike is left as it is.
 */
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { parseOptionsSchema } from '../../../src/contract/options.js';
import { repairDoubleEncoding } from '../../../src/engine/bytes/mojibake.js';
import { decodeText } from '../../../src/engine/bytes/text.js';
import { parseDocument } from '../../../src/engine/engine.js';

const options = parseOptionsSchema.parse({});

/**
 * `text`'s UTF-8 bytes read as `as` and written out again as UTF-8: what a wrong charset guess saves. windows-1252 as
 * browsers read it (WHATWG: its five unassigned bytes, 9D in "”" among them, are the C1 controls of the same number).
 */
function encodedTwice(text: string, as: 'windows-1252' | 'latin1'): Buffer {
  const misread = as === 'latin1' ? Buffer.from(text, 'utf8').toString('latin1') : new TextDecoder('windows-1252').decode(Buffer.from(text, 'utf8'));
  return Buffer.from(misread, 'utf8');
}

const PROSE = 'Don’t wait — it’s “ready” for the café at 20 °C… São Paulo’s naïve résumé, © 2025.';

describe('text encoded twice', () => {
  it('is turned back whether the wrong reading was windows-1252 ("â€™") or Latin-1 (C1 controls)', () => {
    for (const as of ['windows-1252', 'latin1'] as const) {
      const bytes = encodedTwice(PROSE, as);
      expect(bytes.toString('utf8')).not.toBe(PROSE);
      const decoded = decodeText(bytes);
      expect(decoded.text).toBe(PROSE);
      expect(decoded.repairedRuns).toBe(14);
    }
  });

  it('is turned back when encoded three times', () => {
    const thrice = Buffer.from(new TextDecoder('windows-1252').decode(encodedTwice(PROSE, 'windows-1252')), 'utf8');
    expect(decodeText(thrice).text).toBe(PROSE);
  });

  it('leaves alone text that only holds such pairs on purpose, and text without any', () => {
    // Two pairs that double encoding would make, without a C1 control: too little to call the text encoded twice.
    const deliberate = 'The sequence Ã© is what "é" looks like when encoded twice; so is Â©.';
    expect(repairDoubleEncoding(deliberate)).toEqual({ text: deliberate, runs: 0 });
    expect(decodeText(Buffer.from(deliberate)).repairedRuns).toBeUndefined();
    expect(decodeText(Buffer.from(PROSE))).toEqual({ text: PROSE, encoding: 'utf-8', detectedBy: 'utf-8' });
  });

  it('reads C1 controls as the windows-1252 punctuation they stand for (windows-1252 read as Latin-1)', () => {
    const text = Buffer.from(iconv.decode(iconv.encode('It’s “done” – 5 € …', 'windows-1252'), 'latin1'), 'utf8');
    expect(decodeText(text).text).toBe('It’s “done” – 5 € …');
    // The five bytes windows-1252 leaves undefined have no character to become: they stay.
    expect(decodeText(Buffer.from('a\u0081b', 'utf8')).text).toBe('a\u0081b');
  });

  it('is turned back in a web page that writes it as entities, split over text nodes by the parser', async () => {
    const entities = '<html><body><article><h1>Notes</h1><p>It isn&acirc;&euro;&trade;t late&acirc;&euro;&rdquo;it&acirc;&euro;&trade;s early. The caf&Atilde;&copy; opens at 9.</p></article></body></html>';
    const data = await parseDocument({ bytes: Buffer.from(entities), fileName: 'entities.html', options });
    expect(data.markdown).toContain('It isn’t late—it’s early. The café opens at 9.');
    expect(data.warning).toMatch(/encoded twice/);
  });

  it('comes out right in a web page and a CSV file, each with a warning', async () => {
    const page = encodedTwice(`<html><head><meta charset="utf-8"><title>Notes</title></head><body><article><h1>Notes</h1><p>${PROSE}</p></article></body></html>`, 'windows-1252');
    const csv = encodedTwice(`city,note\nSão Paulo,“naïve” café\nZürich,—\n`, 'latin1');
    const warning = /encoded twice .*: \d+ characters were restored/;

    const html = await parseDocument({ bytes: page, fileName: 'notes.html', options });
    expect(html.markdown).toContain(PROSE);
    expect(html.warning).toMatch(warning);

    const table = await parseDocument({ bytes: csv, fileName: 'notes.csv', options });
    expect(table.markdown).toContain('| São Paulo | “naïve” café |');
    expect(table.warning).toMatch(warning);

    const clean = await parseDocument({ bytes: Buffer.from(`<html><body><p>${PROSE}</p></body></html>`), fileName: 'clean.html', options });
    expect(clean.markdown).toContain(PROSE);
    expect(clean.warning ?? '').not.toMatch(warning);
  });
});
