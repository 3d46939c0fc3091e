/**
 * Charts of an OOXML workbook (.xlsx, .xlsm), by the sheet they sit on: their title, kind and the data cached in the
 * chart part (one row per category, one column per series; slides/pptx/chart.ts reads the part, as for slides).
 *
 * A chart is found the way Excel finds it: xl/workbook.xml names each sheet and its part; the sheet's (or chart
 * sheet's) relationships lead to its drawing, whose anchors place charts on the grid and lead to the chart parts.
 * Charts on a sheet come in the order of their top-left anchor (top to bottom, then left to right).
 *
 * SheetJS does not expose this, so the parts are read here: only the small package, workbook, relationship,
 * drawing and chart parts are inflated, each capped (docx/package.ts), at most MAX_CHARTS charts. Charts are an
 * addition to the cells: a package whose chart parts cannot be read still converts, with a warning.
 */
import type { ZipArchive } from '../bytes/zip.js';
import { parseRelationships, type Relationship } from '../docx/package.js';
import { readChart } from '../slides/pptx/chart.js';
import { attr, child, descendants, elements, parseXml, path, textContent, type XmlElement } from '../slides/xml.js';
import { relsPartOf, workbookSheetParts } from './ooxml-workbook.js';

export interface SheetChart {
  /** The title shown on the chart, or empty. */
  title: string;
  /** What kind of chart it is in words: "line", "bar", "bar and line"... */
  kind: string;
  /** A header row (an empty corner, then the series names) and one row per category. */
  rows: string[][];
}

export interface WorkbookCharts {
  /** By sheet name. */
  bySheet: Map<string, SheetChart[]>;
  warnings: string[];
}

export const MAX_CHARTS = 500;

/** The charts of a workbook package, or none when it has no chart parts (or is no package). */
export function workbookCharts(zip: ZipArchive | undefined): WorkbookCharts {
  const bySheet = new Map<string, SheetChart[]>();
  if (zip === undefined || !zip.names.some((name) => /(^|\/)charts\/[^/]+\.xml$/.test(name))) return { bySheet, warnings: [] };
  try {
    readCharts(zip, bySheet);
    return { bySheet, warnings: [] };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { bySheet, warnings: [`The workbook's charts could not all be read (${reason}).`] };
  }
}

interface Anchored {
  row: number;
  column: number;
  chartPart: string;
}

function readCharts(zip: ZipArchive, bySheet: Map<string, SheetChart[]>): void {
  const sheetParts = workbookSheetParts(zip);

  const sheetRels = zip.readTexts(sheetParts.map((sheet) => relsPartOf(sheet.part)));
  const drawingsOf = new Map<string, string[]>();
  for (const sheet of sheetParts) {
    const drawings = internal(parseRelationships(sheetRels.get(relsPartOf(sheet.part)), sheet.part), 'drawing');
    drawingsOf.set(sheet.name, drawings.map((relationship) => relationship.target));
  }
  const drawingNames = [...new Set([...drawingsOf.values()].flat())];
  const drawingParts = zip.readTexts([...drawingNames, ...drawingNames.map(relsPartOf)]);

  let charts = 0;
  const anchoredBySheet = new Map<string, Anchored[]>();
  for (const sheet of sheetParts) {
    const anchored: Anchored[] = [];
    for (const drawing of drawingsOf.get(sheet.name) ?? []) {
      const chartTargets = new Map(
        internal(parseRelationships(drawingParts.get(relsPartOf(drawing)), drawing), 'chart').map((relationship) => [
          relationship.id,
          relationship.target,
        ]),
      );
      for (const anchor of drawingCharts(drawingParts.get(drawing) ?? '')) {
        const chartPart = chartTargets.get(anchor.relationshipId);
        if (chartPart === undefined || !zip.has(chartPart) || charts >= MAX_CHARTS) continue;
        charts += 1;
        anchored.push({ row: anchor.row, column: anchor.column, chartPart });
      }
    }
    anchored.sort((a, b) => a.row - b.row || a.column - b.column);
    if (anchored.length > 0) anchoredBySheet.set(sheet.name, anchored);
  }
  if (anchoredBySheet.size === 0) return;

  const chartParts = zip.readTexts(new Set([...anchoredBySheet.values()].flat().map((anchored) => anchored.chartPart)));
  for (const [sheetName, anchored] of anchoredBySheet) {
    const sheetCharts: SheetChart[] = [];
    for (const { chartPart } of anchored) {
      const root = parseXml(chartParts.get(chartPart) ?? '');
      if (root === null || root.name !== 'chartSpace') continue;
      const data = readChart(root, { listStyles: [], relationships: [], slideNumber: 0 });
      if (data.title === '' && data.rows.length === 0) continue;
      sheetCharts.push({ title: data.title, kind: chartKind(root), rows: data.rows });
    }
    if (sheetCharts.length > 0) bySheet.set(sheetName, sheetCharts);
  }
}

function internal(relationships: Relationship[], kind: string): Relationship[] {
  return relationships.filter((relationship) => !relationship.external && relationship.kind === kind);
}

/** The charts a drawing part anchors: the relationship id of each and the cell of its top-left corner. */
function drawingCharts(drawingXml: string): { relationshipId: string; row: number; column: number }[] {
  const root = parseXml(drawingXml);
  if (root === null) return [];
  const found: { relationshipId: string; row: number; column: number }[] = [];
  for (const anchor of elements(root, 'twoCellAnchor', 'oneCellAnchor', 'absoluteAnchor')) {
    const row = Number(textContent(path(anchor, 'from', 'row')).trim() || Number.MAX_SAFE_INTEGER);
    const column = Number(textContent(path(anchor, 'from', 'col')).trim() || 0);
    for (const chart of descendants(anchor, 'chart')) {
      const id = attr(chart, 'r:id');
      if (id !== undefined) found.push({ relationshipId: id, row: Number.isFinite(row) ? row : 0, column: Number.isFinite(column) ? column : 0 });
    }
  }
  return found;
}

/** "line", "bar", "bar and line" from the plot area's chart groups (`c:lineChart`, `c:bar3DChart`...). */
function chartKind(chartSpace: XmlElement): string {
  const groups = elements(path(chartSpace, 'chart', 'plotArea')).filter((element) => element.name.endsWith('Chart'));
  const kinds = [
    ...new Set(
      groups.map((group) => {
        const kind = group.name.replace(/(3D)?Chart$/, '');
        if (kind === 'ofPie') return 'pie';
        if (kind === 'bar' && attr(child(group, 'barDir'), 'val') === 'col') return 'column';
        return kind;
      }),
    ),
  ];
  return kinds.join(' and ');
}
