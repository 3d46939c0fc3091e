/**
 * Where each sheet of an OOXML workbook (.xlsx, .xlsm) lives in its package: xl/workbook.xml names the sheets in
 * order with a relationship id, xl/_rels/workbook.xml.rels turns the id into a part name. Read for what SheetJS
 * does not expose (charts, column widths and row heights); parts are inflated one by one with a size cap
 * (docx/package.ts).
 */
import { decodeXmlEntities } from './comments.js';
import { mainDocumentPart, parseRelationships, readParts } from '../docx/package.js';
import { attr, child, elements, parseXml } from '../slides/xml.js';

export interface SheetPart {
  name: string;
  /** Part name inside the package: `xl/worksheets/sheet1.xml`, `xl/chartsheets/sheet1.xml`. */
  part: string;
}

/** The sheets with their parts, in workbook order (a sheet whose part is missing is left out). */
export function workbookSheetParts(bytes: Uint8Array, present: ReadonlySet<string>): SheetPart[] {
  let workbookPart = mainDocumentPart(readParts(bytes, ['_rels/.rels']).get('_rels/.rels'));
  if (!present.has(workbookPart)) workbookPart = 'xl/workbook.xml';
  // A binary workbook (.xlsb) or an OpenDocument package: nothing to read here.
  if (!present.has(workbookPart) || !workbookPart.endsWith('.xml')) return [];
  const workbookRelsPart = relsPartOf(workbookPart);
  const parts = readParts(bytes, [workbookPart, workbookRelsPart]);
  const targets = new Map(
    parseRelationships(parts.get(workbookRelsPart), workbookPart).map((relationship) => [relationship.id, relationship]),
  );
  const root = parseXml(parts.get(workbookPart) ?? '');
  return elements(child(root, 'sheets'), 'sheet').flatMap((sheet) => {
    const name = attr(sheet, 'name');
    const target = targets.get(attr(sheet, 'r:id') ?? '');
    if (name === undefined || target === undefined || target.external || !present.has(target.target)) return [];
    return [{ name: decodeXmlEntities(name), part: target.target }];
  });
}

/** `xl/worksheets/sheet1.xml` → `xl/worksheets/_rels/sheet1.xml.rels`. */
export function relsPartOf(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}
