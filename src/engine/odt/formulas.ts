/**
 * Formulas in OpenDocument text. LibreOffice embeds a formula as an object of its own (`draw:object` pointing to
 * `Object 1/content.xml`, MathML) with a picture of it beside (`ObjectReplacements/Object 1`), and the converter
 * read only the picture: the formula's text was lost. The object's MathML is read as LaTeX (html/mathml.ts), which
 * the Markdown writer gives as `$…$`, as Word's equations are.
 */
import type { ZipArchive } from '../bytes/zip.js';
import { parseDocument } from '../html/dom.js';
import { mathToLatex } from '../html/mathml.js';

/** The LaTeX of the formula object `href` points to (`./Object 1`), or null when it is no formula or unreadable. */
export type FormulaSource = (href: string) => string | null;

export function packageFormulas(zip: ZipArchive | null): FormulaSource {
  return (href) => {
    const folder = href.trim().replace(/^\.\//, '').replace(/\/$/, '');
    if (zip === null || folder === '' || /^[a-z][a-z0-9+.-]*:/i.test(folder)) return null;
    let xml: string | undefined;
    try {
      xml = zip.readTexts([`${folder}/content.xml`]).get(`${folder}/content.xml`);
    } catch {
      return null;
    }
    // A chart, a drawing or a spreadsheet embedded as an object is no formula.
    if (xml === undefined || !/<(?:[\w.-]+:)?math\b/.test(xml)) return null;
    const math = parseDocument(xml).getElementsByTagName('math')[0];
    const latex = math === undefined ? '' : mathToLatex(math);
    return latex === '' ? null : latex;
  };
}
