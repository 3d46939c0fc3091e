/**
 * Pictures placed on the sheets of an OOXML workbook (.xlsx, .xlsm), kept in the result (`removeBase64Images`
 * false) as data: URIs by the sheet they sit on, in the order of their top-left anchor (top to bottom, then left to
 * right), with the description or title the workbook gives them. Found as charts are (charts.ts): the sheet's
 * relationships lead to its drawing, whose `xdr:pic` anchors lead through the drawing's relationships to the media
 * parts. Pictures are an addition to the cells: a drawing that cannot be read costs its pictures, not the workbook.
 */
import type { ZipArchive } from '../bytes/zip.js';
import { parseRelationships } from '../docx/package.js';
import { packageImageUri } from '../package-images.js';
import { attr, descendants, elements, parseXml, path, textContent } from '../slides/xml.js';
import { relsPartOf, workbookSheetParts } from './ooxml-workbook.js';

export interface SheetPicture {
  description: string;
  /** The picture as a data: URI. */
  uri: string;
}

/** At most this many pictures of a workbook are read. */
const MAX_PICTURES = 1000;

/** By sheet name; empty when the package has no drawing with a picture (or is no package). */
export function workbookPictures(zip: ZipArchive | undefined): Map<string, SheetPicture[]> {
  const bySheet = new Map<string, SheetPicture[]>();
  if (zip === undefined || !zip.names.some((name) => /(^|\/)media\/[^/]+$/.test(name))) return bySheet;
  const sheetParts = workbookSheetParts(zip);
  const sheetRels = zip.readTexts(sheetParts.map((sheet) => relsPartOf(sheet.part)));
  let count = 0;
  for (const sheet of sheetParts) {
    const drawings = parseRelationships(sheetRels.get(relsPartOf(sheet.part)), sheet.part).filter(
      (relationship) => !relationship.external && relationship.kind === 'drawing',
    );
    const anchored: Array<SheetPicture & { row: number; column: number }> = [];
    for (const { target: drawing } of drawings) {
      const parts = zip.readTexts([drawing, relsPartOf(drawing)]);
      const root = parseXml(parts.get(drawing) ?? '');
      if (root === null) continue;
      const media = new Map(
        parseRelationships(parts.get(relsPartOf(drawing)), drawing)
          .filter((relationship) => !relationship.external)
          .map((relationship) => [relationship.id, relationship.target]),
      );
      for (const anchor of elements(root, 'twoCellAnchor', 'oneCellAnchor', 'absoluteAnchor')) {
        const row = Number(textContent(path(anchor, 'from', 'row')).trim() || 0);
        const column = Number(textContent(path(anchor, 'from', 'col')).trim() || 0);
        for (const picture of descendants(anchor, 'pic')) {
          const target = media.get(attr(path(picture, 'blipFill', 'blip'), 'r:embed') ?? '');
          const uri = target === undefined || count >= MAX_PICTURES ? null : packageImageUri(zip, target);
          if (uri === null) continue;
          count += 1;
          const properties = path(picture, 'nvPicPr', 'cNvPr');
          const description = (attr(properties, 'descr') || attr(properties, 'title') || '').replace(/\s+/g, ' ').trim();
          anchored.push({ description, uri, row: Number.isFinite(row) ? row : 0, column: Number.isFinite(column) ? column : 0 });
        }
      }
    }
    anchored.sort((a, b) => a.row - b.row || a.column - b.column);
    if (anchored.length > 0) bySheet.set(sheet.name, anchored.map(({ description, uri }) => ({ description, uri })));
  }
  return bySheet;
}
