/**
 * Objects embedded in OpenDocument text (`draw:object` pointing to `Object 1/content.xml`, a picture of the object
 * beside it in `ObjectReplacements/`). The converter read only the picture, so what the object says was lost:
 * - a formula (LibreOffice Math: MathML) is read as LaTeX (html/mathml.ts), written `$…$` as Word's equations;
 * - a chart (`office:chart`) is read as the slide converter reads one (slides/odp/chart.ts): its title and the data
 *   table it keeps, written as a caption and a table after the paragraph it stands in.
 * Another object (a drawing, a spreadsheet) keeps its picture.
 */
import type { ZipArchive } from '../bytes/zip.js';
import { parseDocument } from '../html/dom.js';
import { mathToLatex } from '../html/mathml.js';
import { readChart } from '../slides/odp/chart.js';
import { readStyles } from '../slides/odp/styles.js';
import { parseXml } from '../slides/xml.js';

export type EmbeddedObject = { kind: 'formula'; latex: string } | { kind: 'chart'; title: string; rows: string[][] };

/** What the object `href` points to (`./Object 1`) says, or null when it is neither a formula nor a chart. */
export type ObjectSource = (href: string) => EmbeddedObject | null;

export function packageObjects(zip: ZipArchive | null): ObjectSource {
  return (href) => {
    const folder = href.trim().replace(/^\.\//, '').replace(/\/$/, '');
    if (zip === null || folder === '' || /^[a-z][a-z0-9+.-]*:/i.test(folder)) return null;
    let xml: string | undefined;
    try {
      xml = zip.readTexts([`${folder}/content.xml`]).get(`${folder}/content.xml`);
    } catch {
      return null;
    }
    if (xml === undefined) return null;
    if (/<(?:[\w.-]+:)?math\b/.test(xml)) return formula(xml);
    if (/<[\w.-]+:chart\b/.test(xml)) return chart(xml);
    return null;
  };
}

function formula(xml: string): EmbeddedObject | null {
  const math = parseDocument(xml).getElementsByTagName('math')[0];
  const latex = math === undefined ? '' : mathToLatex(math);
  return latex === '' ? null : { kind: 'formula', latex };
}

function chart(xml: string): EmbeddedObject | null {
  const content = parseXml(xml);
  if (content === null) return null;
  const read = readChart(content, { styles: readStyles(content, undefined), slideNumber: 0 });
  if (read === null || (read.title === '' && read.rows.length === 0)) return null;
  return { kind: 'chart', title: read.title, rows: read.rows };
}
