/**
 * Where each sheet of an OOXML workbook (.xlsx, .xlsm) lives in its package: xl/workbook.xml names the sheets in
 * order with a relationship id, xl/_rels/workbook.xml.rels turns the id into a part name. Read for what SheetJS
 * does not expose (charts, column widths and row heights); parts are inflated one by one through the engine's zip
 * reader (bytes/zip.ts).
 */
import type { ZipArchive } from '../bytes/zip.js';
import { decodeXmlEntities } from '../../common/xml-entities.js';
import { mainDocumentPart, parseRelationships } from '../docx/package.js';
import { attr, child, elements, parseXml } from '../slides/xml.js';

export interface SheetPart {
  name: string;
  /** Part name inside the package: `xl/worksheets/sheet1.xml`, `xl/chartsheets/sheet1.xml`. */
  part: string;
}

/** The sheets with their parts, in workbook order (a sheet whose part is missing is left out). */
export function workbookSheetParts(zip: ZipArchive): SheetPart[] {
  return namedSheetParts(zip).filter((sheet) => zip.has(sheet.part));
}

/** The sheets the workbook names whose part is not in the package (a file cut short lost it). */
export function missingSheetParts(zip: ZipArchive): SheetPart[] {
  return namedSheetParts(zip).filter((sheet) => !zip.has(sheet.part));
}

/** Every sheet the workbook names with the part its relationship gives, in workbook order. */
function namedSheetParts(zip: ZipArchive): SheetPart[] {
  let workbookPart = mainDocumentPart(zip.readText('_rels/.rels'));
  if (!zip.has(workbookPart)) workbookPart = 'xl/workbook.xml';
  // A binary workbook (.xlsb) or an OpenDocument package: nothing to read here.
  if (!zip.has(workbookPart) || !workbookPart.endsWith('.xml')) return [];
  const workbookRelsPart = relsPartOf(workbookPart);
  const parts = zip.readTexts([workbookPart, workbookRelsPart]);
  const targets = new Map(
    parseRelationships(parts.get(workbookRelsPart), workbookPart).map((relationship) => [relationship.id, relationship]),
  );
  const root = parseXml(parts.get(workbookPart) ?? '');
  return elements(child(root, 'sheets'), 'sheet').flatMap((sheet) => {
    const name = attr(sheet, 'name');
    const target = targets.get(attr(sheet, 'r:id') ?? '');
    if (name === undefined || target === undefined || target.external) return [];
    return [{ name: decodeXmlEntities(name), part: target.target }];
  });
}

/** `xl/worksheets/sheet1.xml` → `xl/worksheets/_rels/sheet1.xml.rels`. */
export function relsPartOf(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}
