/**
 * An embedded chart object (`Object 1/content.xml` holding `office:chart`, as Impress and Writer embed charts) →
 * its title and the data table the chart keeps (`table:table` in `chart:chart`): what the chart shows, read as the
 * slide and text converters write charts (a caption and a table).
 */
import { plainText } from '../paragraphs.js';
import type { SlideItem } from '../slide-model.js';
import { child, type XmlElement } from '../xml.js';
import { odfTableRows } from './table.js';
import { odfParagraphs, type OdpTextContext } from './text.js';

export function readChart(document: XmlElement | null, context: OdpTextContext): Extract<SlideItem, { kind: 'chart' }> | null {
  // office:body > office:chart > chart:chart
  const chart = child(child(child(document, 'body'), 'chart'), 'chart');
  if (chart === undefined) return null;
  const title = plainText(odfParagraphs(child(chart, 'title'), context), ' ');
  const table = child(chart, 'table');
  return { kind: 'chart', title, rows: table === undefined ? [] : odfTableRows(table, context), rect: null };
}
