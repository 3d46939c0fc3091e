/**
 * One text flow of an RTF document (the body, a footnote, a page header or footer) turned into blocks as the reader
 * walks it. The reader hands over runs of text and the structural events RTF has (paragraph end, cell end, row end,
 * line break, the text of a list marker); the flow groups paragraphs into the blocks the renderer wants:
 *
 * | paragraphs | block |
 * |---|---|
 * | a heading paragraph (style "heading N", "Title", or an outline level) | `section_header`, label `heading-N`; the first level-1 heading of the body is the `title` |
 * | consecutive list paragraphs (`\ls`, or a `\pntext`/`\listtext` marker) | one `text` block, label `list`, items indented four spaces per level |
 * | consecutive table paragraphs, up to the next paragraph outside the table | one `table` block (GFM, first row as header) |
 * | any other paragraph with text | `text` |
 *
 * Table cells are plain text (a cell's paragraphs and nested tables' cells become lines, `<br>` in GFM); a nested
 * table is flattened into its outer cell. Cells are set on the columns their edges say (table-grid.ts): a cell as
 * wide as two columns spans both.
 */
import type { KnownBlockType } from '../../contract/response.js';
import { renderGfmTable } from '../gfm-table.js';
import { layOutRows, type ReadRow, type RowDefinition } from './table-grid.js';
import { appendRun, cleanText, hasVisibleText, headingMarkdown, plainText, type Run, runsToMarkdown } from './markdown.js';
import { escapeRunText } from '../markdown-text.js';

/** What the reader knows about a paragraph when it ends. */
export interface ParagraphInfo {
  /** 1-6 for a heading paragraph, null otherwise. */
  headingLevel: number | null;
  inTable: boolean;
  /** The 0-based level of a `\ls` list paragraph, null when the paragraph is not in a list. */
  listLevel: number | null;
}

export const BODY_PARAGRAPH: ParagraphInfo = { headingLevel: null, inTable: false, listLevel: null };

export interface FlowBlock {
  type: KnownBlockType;
  label: string | null;
  markdown: string;
}

interface ListItem {
  level: number;
  marker: string | null;
  runs: Run[];
}

/** Markdown list items nest by indentation; four spaces per level work under `- `, `1. ` and `10. ` parents. */
const LIST_INDENT = '    ';

export class Flow {
  readonly blocks: FlowBlock[] = [];
  private runs: Run[] = [];
  private marker: string | null = null;
  private markerLevel: number | null = null;
  private listItems: ListItem[] = [];
  private cellLines: string[] = [];
  private rowCells: string[] = [];
  private tableRows: ReadRow[] = [];
  private titleSeen: boolean;

  /** `withTitle`: the first level-1 heading becomes the document title (the body flow only). */
  constructor(withTitle: boolean) {
    this.titleSeen = !withTitle;
  }

  addText(text: string, bold: boolean, italic: boolean, link: string | null): void {
    appendRun(this.runs, text, bold, italic, link);
  }

  /** Markdown written by the converter (a footnote reference), kept as is; the run is returned to be amended. */
  addMarkdown(markdown: string): Run {
    const run: Run = { text: markdown, bold: false, italic: false, link: null, raw: true };
    this.runs.push(run);
    return run;
  }

  lineBreak(): void {
    const last = this.runs[this.runs.length - 1];
    appendRun(this.runs, '\n', last?.bold ?? false, last?.italic ?? false, last?.link ?? null);
  }

  /** The text of the list marker (`\pntext`, `\listtext`) of the paragraph being read: "1.", "·", "a)"... */
  setListMarker(text: string): void {
    this.marker = text.replace(/\s+/g, ' ').trim();
  }

  /** The level of an old-style (`\pn`) list paragraph, 0-based. */
  setListLevel(level: number): void {
    this.markerLevel = level;
  }

  endParagraph(info: ParagraphInfo): void {
    const runs = this.runs;
    const marker = this.marker;
    const markerLevel = this.markerLevel;
    this.runs = [];
    this.marker = null;
    this.markerLevel = null;

    if (info.inTable) {
      this.closeList();
      if (hasVisibleText(runs)) this.cellLines.push(cellText(runs, marker));
      return;
    }
    this.closeTable();
    if (!hasVisibleText(runs)) return;
    if (info.headingLevel !== null) {
      this.closeList();
      this.pushHeading(info.headingLevel, runs, marker);
      return;
    }
    if (info.listLevel !== null || marker !== null) {
      this.listItems.push({ level: info.listLevel ?? markerLevel ?? 0, marker, runs });
      return;
    }
    this.closeList();
    const markdown = runsToMarkdown(runs);
    if (markdown !== '') this.blocks.push({ type: 'text', label: null, markdown });
  }

  /** `\cell`: the text since the last cell end is the cell's last paragraph. */
  endCell(): void {
    this.closeList();
    if (hasVisibleText(this.runs) || this.cellLines.length === 0) this.cellLines.push(cellText(this.runs, this.marker));
    this.runs = [];
    this.marker = null;
    this.rowCells.push(this.cellLines.filter((line) => line !== '').join('\n'));
    this.cellLines = [];
  }

  /** `\nestcell`: a nested table's cell, flattened into a line of the outer cell. */
  endNestedCell(): void {
    if (hasVisibleText(this.runs)) this.cellLines.push(cellText(this.runs, this.marker));
    this.runs = [];
    this.marker = null;
  }

  /**
   * `\row`, with the row's definition (its cells' edges and merges, table-grid.ts) when the reader has one. Text after
   * the last `\cell` of the row (a writer that left it out) is a last cell.
   */
  endRow(definition: RowDefinition | null = null): void {
    if (hasVisibleText(this.runs) || this.cellLines.length > 0) this.endCell();
    this.runs = [];
    if (this.rowCells.length > 0) this.tableRows.push({ cells: this.rowCells, definition: definition === null ? null : { left: definition.left, cells: [...definition.cells] } });
    this.rowCells = [];
  }

  /** The end of the flow: what is still open (a last paragraph without `\par`, a table, a list) is written out. */
  finish(info: ParagraphInfo): void {
    if (hasVisibleText(this.runs)) this.endParagraph(info);
    this.runs = [];
    this.marker = null;
    this.closeTable();
    this.closeList();
  }

  private pushHeading(level: number, runs: Run[], marker: string | null): void {
    // A numbered heading keeps its number ("2.1 Scope"); a bullet in front of a heading is dropped.
    const prefix = marker !== null && /[\p{L}\p{N}]/u.test(marker) ? `${marker} ` : '';
    const markdown = headingMarkdown(level, prefix, runs);
    if (level === 1 && !this.titleSeen) {
      this.titleSeen = true;
      this.blocks.push({ type: 'title', label: 'heading-1', markdown });
    } else {
      this.blocks.push({ type: 'section_header', label: `heading-${level}`, markdown });
    }
  }

  private closeTable(): void {
    if (this.cellLines.length > 0 || this.rowCells.length > 0) this.endRow();
    if (this.tableRows.length === 0) return;
    const markdown = renderGfmTable(layOutRows(this.tableRows));
    this.tableRows = [];
    if (markdown !== '') this.blocks.push({ type: 'table', label: null, markdown });
  }

  private closeList(): void {
    if (this.listItems.length === 0) return;
    const lines: string[] = [];
    let previousLevel = -1;
    for (const item of this.listItems) {
      // A list cannot start deeper than its first level, nor skip levels: deeper items hang under the last one.
      const level = Math.min(Math.max(item.level, 0), previousLevel + 1);
      previousLevel = level;
      const { bullet, label } = listBullet(item.marker);
      const indent = LIST_INDENT.repeat(level);
      const continuation = `  \n${indent}${' '.repeat(bullet.length + 1)}`;
      lines.push(`${indent}${bullet} ${label}${runsToMarkdown(item.runs, continuation)}`);
    }
    this.listItems = [];
    this.blocks.push({ type: 'text', label: 'list', markdown: lines.join('\n') });
  }
}

/**
 * The Markdown bullet for a list marker: `N.` for a number ("3.", "3)", "(3)"), `-` otherwise; a marker that is
 * neither a number nor a bullet symbol ("a.", "iv)", "1.2") is kept as the start of the item's text.
 */
function listBullet(marker: string | null): { bullet: string; label: string } {
  if (marker === null) return { bullet: '-', label: '' };
  const number = /^\(?(\d{1,9})[.)]?$/.exec(marker);
  if (number) return { bullet: `${Number(number[1])}.`, label: '' };
  if (!/[\p{L}\p{N}]/u.test(marker)) return { bullet: '-', label: '' };
  return { bullet: '-', label: `${escapeRunText(cleanText(marker))} ` };
}

function cellText(runs: readonly Run[], marker: string | null): string {
  const text = cleanText(plainText(runs)).trim();
  return marker !== null && marker !== '' ? `${marker} ${text}` : text;
}
