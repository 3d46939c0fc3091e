/**
 * List bullets drawn as shapes (a browser's printed lists): the marks found beside their lines, a chart legend's
 * marks left alone, and a generated PDF whose lists have no bullet characters read as lists by the local engine.
 */
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOptions } from '../../../src/backend/upload-checks.js';
import { LocalParseEngine } from '../../../src/engine/local-engine.js';
import { drawnBullets, type DrawnShape } from '../../../src/engine/pdf/liteparse/drawn-bullets.js';
import { item } from './synthetic.js';

/** A 4 pt disc whose middle is `middle` (page units, top-down). */
function disc(x: number, middle: number, fillColor = 'ff000000'): DrawnShape {
  return { bbox: { x, y: middle - 2, width: 4, height: 4 }, fill: true, stroke: false, fillColor };
}

describe('drawnBullets', () => {
  const lines = [item('on Debian, apt-get install', 90, 100), item('on macOS, brew install', 90, 115)];

  it('makes a bullet of a small disc just left of a line, at the height of its lower-case letters', () => {
    const bullets = drawnBullets(lines, [disc(78, 96.5), disc(78, 111.5)]);
    expect(bullets.map((bullet) => [bullet.str, bullet.baseline, bullet.x0])).toEqual([
      ['•', 100, 78],
      ['•', 115, 78],
    ]);
  });

  it('leaves shapes that are no bullets: large, far from the text, mid-line, above the line', () => {
    const large: DrawnShape = { bbox: { x: 70, y: 92, width: 12, height: 12 }, fill: true, stroke: false };
    expect(drawnBullets(lines, [large])).toEqual([]);
    expect(drawnBullets(lines, [disc(40, 96.5)])).toEqual([]);
    expect(drawnBullets([item('install', 50, 100), item('redis', 100, 100)], [disc(92, 96.5)])).toEqual([]);
    expect(drawnBullets(lines, [disc(78, 85)])).toEqual([]);
  });

  it("leaves a chart legend's marks: several on one line, or a colour a series down a column", () => {
    const row = [item('2019', 90, 100), item('2020', 150, 100)];
    expect(drawnBullets(row, [disc(78, 96.5), disc(138, 96.5)])).toEqual([]);
    expect(drawnBullets(lines, [disc(78, 96.5, 'ff1f77b4'), disc(78, 111.5, 'ffff7f0e')])).toEqual([]);
    // Labels far apart, each mark starting its stretch of the line: still a row of lone marks, no list.
    const wide = [item('2019', 90, 100), item('2020', 250, 100)];
    expect(drawnBullets(wide, [disc(78, 96.5), disc(238, 96.5)])).toEqual([]);
  });

  it("keeps the lists of two columns whose bullets stand at the same heights, a brochure's", () => {
    const left = [item('Monday to Friday', 90, 100), item('Saturday', 90, 115), item('Sunday: closed', 90, 130)];
    const right = [item('Free Wi-Fi', 360, 99), item('Printing', 360, 114), item('E-books', 360, 129)];
    const marks = [96.5, 111.5, 126.5].flatMap((middle) => [disc(78, middle), disc(348, middle - 1)]);
    const bullets = drawnBullets([...left, ...right], marks);
    expect(bullets.map((bullet) => [bullet.x0, bullet.baseline]).sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!)).toEqual([
      [78, 100],
      [78, 115],
      [78, 130],
      [348, 99],
      [348, 114],
      [348, 129],
    ]);
  });
});

describe('a PDF whose lists draw their bullets', () => {
  let engine: LocalParseEngine;
  beforeAll(() => {
    engine = new LocalParseEngine({ size: 1 });
  });
  afterAll(async () => {
    await engine.close();
  });

  it('reads them as a list, nested by indent', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([612, 792]);
    page.drawText('Install the worker on each host before the first run of the batch.', { x: 72, y: 720, size: 12, font });
    const entries: [number, string][] = [
      [0, 'Install Node 20 or later'],
      [0, 'Install Redis and start it'],
      [1, 'on Debian with apt-get'],
      [1, 'on macOS with brew'],
      [0, 'Run the install command'],
    ];
    entries.forEach(([level, text], i) => {
      const x = 90 + level * 24;
      const y = 690 - i * 18;
      if (level === 0) page.drawCircle({ x: x - 10, y: y + 3.5, size: 2.2, color: rgb(0, 0, 0) });
      else page.drawCircle({ x: x - 10, y: y + 3.5, size: 2.2, borderColor: rgb(0, 0, 0), borderWidth: 0.8 });
      page.drawText(text, { x, y, size: 12, font });
    });
    const data = await engine.parseBytes(await pdf.save(), 'list.pdf', checkOptions({ parsers: [{ type: 'pdf' }] }));
    expect(data.markdown).toContain(
      '- Install Node 20 or later\n- Install Redis and start it\n  - on Debian with apt-get\n  - on macOS with brew\n- Run the install command',
    );
  });
});
