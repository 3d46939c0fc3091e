/**
 * Charts in Word documents. Word draws a chart as a `w:drawing` whose graphic points to a chart part (`c:chart
 * r:id`), and mammoth, reading only pictures, dropped it whole. The chart is read as the slide converter reads one
 * (slides/pptx/chart.ts: its title and a table of the data cached in the part, a row per category and a column per
 * series) and given to mammoth beside the drawing (drawing-content.ts) as a caption, `*Chart: Sales*` as slides
 * write it, and a table. The embedded workbook is not opened: the cache is what the chart shows.
 */
import { readChart } from '../slides/pptx/chart.js';
import { parseXml } from '../slides/xml.js';
import { escapeXml } from './drawing-content.js';

/**
 * The chart's caption and data table as WordprocessingML, when the drawing is a chart whose part (`chartXml`, by
 * relationship id) can be read; null otherwise.
 */
export function chartContent(drawingXml: string, word: string, chartXml: (relationshipId: string) => string | undefined): string | null {
  if (!/<[\w.-]+:graphicData\b[^>]*?uri="[^"]*\/chart"/.test(drawingXml)) return null;
  const chartId = /<[\w.-]+:chart\b[^>]*?\s[\w.-]+:id="([^"]+)"/.exec(drawingXml)?.[1];
  const partXml = chartId === undefined ? undefined : chartXml(chartId);
  const chartSpace = partXml === undefined ? null : parseXml(partXml);
  if (chartSpace === null) return null;
  const { title, rows } = readChart(chartSpace, { listStyles: [], relationships: [], slideNumber: 0 });
  const caption = title.replace(/\s+/g, ' ').trim();
  const captionRun = `<${word}:r><${word}:rPr><${word}:i/></${word}:rPr><${word}:t xml:space="preserve">${escapeXml(caption === '' ? 'Chart' : `Chart: ${caption}`)}</${word}:t></${word}:r>`;
  return `<${word}:p>${captionRun}</${word}:p>${dataTable(trimmedRows(rows), word)}`;
}

/** The chart's rows as a table, its first row (the series' names) the header. */
function dataTable(rows: readonly string[][], word: string): string {
  if (rows.length < 2) return '';
  const width = Math.max(...rows.map((row) => row.length));
  const cell = (text: string) =>
    `<${word}:tc><${word}:p>${text === '' ? '' : `<${word}:r><${word}:t xml:space="preserve">${escapeXml(text)}</${word}:t></${word}:r>`}</${word}:p></${word}:tc>`;
  const body = rows
    .map((row, index) => {
      const header = index === 0 ? `<${word}:trPr><${word}:tblHeader/></${word}:trPr>` : '';
      return `<${word}:tr>${header}${Array.from({ length: width }, (_, column) => cell(row[column] ?? '')).join('')}</${word}:tr>`;
    })
    .join('');
  return `<${word}:tbl><${word}:tblPr/><${word}:tblGrid>${`<${word}:gridCol/>`.repeat(width)}</${word}:tblGrid>${body}</${word}:tbl>`;
}

/** Rows without a value dropped, and columns past the last with a value. */
function trimmedRows(rows: readonly string[][]): string[][] {
  const kept = rows.filter((row) => row.some((cell) => cell.trim() !== ''));
  const width = Math.max(0, ...kept.map((row) => row.findLastIndex((cell) => cell.trim() !== '') + 1));
  return kept.map((row) => row.slice(0, width));
}
