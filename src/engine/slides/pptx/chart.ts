/**
 * DrawingML charts (`c:chartSpace` parts) → their title and a table of the data cached in the part: one row per
 * category, one column per series (scatter and bubble charts: x values as the categories). The embedded workbook
 * is not opened: the cache is what the chart shows.
 */
import { plainText } from '../paragraphs.js';
import { attr, child, descendants, elements, path, textContent, type XmlElement } from '../xml.js';
import { type TextContext, textBodyParagraphs } from './text.js';

/** Categories read per chart (a chart with more is summarised by its first ones). */
const MAX_CATEGORIES = 5_000;
const MAX_SERIES = 200;

export interface ChartData {
  title: string;
  rows: string[][];
}

export function readChart(chartSpace: XmlElement, context: TextContext): ChartData {
  const chart = child(chartSpace, 'chart');
  const richTitle = path(chart, 'title', 'tx', 'rich');
  let title = richTitle === undefined ? '' : plainText(textBodyParagraphs(richTitle, context), ' ');
  if (title === '') title = textContent(path(chart, 'title', 'tx', 'strRef', 'strCache')).trim();

  const plotArea = child(chart, 'plotArea');
  const series = elements(plotArea)
    .filter((element) => element.name.endsWith('Chart'))
    .flatMap((group) => elements(group, 'ser'))
    .slice(0, MAX_SERIES);
  if (series.length === 0) return { title, rows: [] };

  const names = series.map((entry, index) => {
    const tx = child(entry, 'tx');
    const name = pointValues(tx)[0] ?? textContent(child(tx, 'v')).trim();
    return name !== '' ? name : `Series ${index + 1}`;
  });
  const categories = pointValues(child(series[0], 'cat') ?? child(series[0], 'xVal'));
  const values = series.map((entry) => pointValues(child(entry, 'val') ?? child(entry, 'yVal')));
  const count = Math.min(MAX_CATEGORIES, Math.max(categories.length, ...values.map((list) => list.length)));
  const rows: string[][] = [['', ...names]];
  for (let index = 0; index < count; index += 1) {
    rows.push([categories[index] ?? String(index + 1), ...values.map((list) => list[index] ?? '')]);
  }
  return { title, rows };
}

/** The cached points of a `c:cat`/`c:val`/`c:tx` reference, by their idx. */
function pointValues(reference: XmlElement | undefined): string[] {
  if (reference === undefined) return [];
  const cache =
    descendants(reference, 'strCache', 'numCache')[0] ??
    // Multi-level categories: the innermost level is the one next to the axis.
    elements(descendants(reference, 'multiLvlStrCache')[0], 'lvl')[0] ??
    descendants(reference, 'strLit', 'numLit')[0];
  if (cache === undefined) return [];
  const values: string[] = [];
  for (const point of elements(cache, 'pt')) {
    const index = Number(attr(point, 'idx') ?? values.length);
    if (!Number.isInteger(index) || index < 0 || index >= MAX_CATEGORIES) continue;
    values[index] = textContent(child(point, 'v')).trim();
  }
  return Array.from(values, (value) => value ?? '');
}
