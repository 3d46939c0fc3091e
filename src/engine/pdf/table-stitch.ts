/**
 * Tables continued across pages. When a page's flow ends with a table and the next page's flow starts with one
 * of the same columns, set at the same place across the page, the second continues the first (a header row it
 * repeats is left out). Each part stays a table block on its own page (its bbox, its rows), and the parts are
 * written as one table: a GFM table where no cell of any part spans (the first part with the header, each later
 * part its rows alone, carrying on the part before it: the renderer joins them by a line break, and writes the
 * header again where something else stands between them), else one HTML table, the first part opening `<table>`
 * and the last closing it. Mutates the blocks' Markdown (and a later GFM part's `tableHead`) only.
 */
import { gfmBodyRows, gfmTableHead } from './markdown.js';
import { renderHtmlTable, gridRows, hasSpans, type TablePart, type TableGrid } from './table-grid.js';
import type { ProtoBlock } from './types.js';
import { continuesInNextColumn } from './column-break-tables.js';

/** Left and right edges of the two parts may differ by this share of the table's width. */
const ALIGN = 0.05;

function sameRow(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((text, i) => text === b[i]) && a.some(Boolean);
}

function continues(above: ProtoBlock, below: ProtoBlock): boolean {
  const a = above.table;
  const b = below.table;
  if (above.kind !== 'table' || below.kind !== 'table' || !a || !b || a.colCount !== b.colCount || a.colCount < 2) return false;
  const width = above.rect.x1 - above.rect.x0;
  return Math.abs(above.rect.x0 - below.rect.x0) <= ALIGN * width && Math.abs(above.rect.x1 - below.rect.x1) <= ALIGN * width;
}

/** Rows at the top of `part` that repeat the first part's header. */
function repeatedHeader(first: TableGrid, part: TableGrid): number {
  const head = gridRows(first)[0];
  const top = gridRows(part)[0];
  return head && top && part.rowCount > 1 && sameRow(head, top) ? 1 : 0;
}

/**
 * Stitches tables over page breaks. `pages`: each page's blocks in reading order, page furniture (running
 * headers, footers, page numbers) left out, so that a footer between the parts does not part them.
 */
export function stitchTables(pages: readonly (readonly ProtoBlock[])[]): void {
  let run: ProtoBlock[] = [];
  const finish = () => {
    if (run.length > 1 && !run.some((block) => hasSpans(block.table!))) {
      const first = run[0]!.table!;
      const [header = []] = gridRows(first);
      const head = gfmTableHead(header, first.colCount);
      run.forEach((block, i) => {
        // The first part as the page wrote it (renderTableGrid), its header row the one the later parts go under.
        if (i === 0) return;
        block.markdown = gfmBodyRows(gridRows(block.table!).slice(repeatedHeader(first, block.table!)), first.colCount).join('\n');
        block.tableHead = head;
      });
    } else if (run.length > 1) {
      const first = run[0]!.table!;
      run.forEach((block, i) => {
        const part: TablePart = { opens: i === 0, closes: i === run.length - 1, skipRows: i === 0 ? 0 : repeatedHeader(first, block.table!) };
        block.markdown = renderHtmlTable(block.table!, part);
      });
    }
    run = [];
  };
  for (const blocks of pages) {
    blocks.forEach((block, i) => {
      const open = run[run.length - 1];
      // A page's first block may carry on the table ending the page before; a later one the table read right
      // before it, cut at a column break.
      const carries = open !== undefined && (i === 0 ? continues(open, block) : open === blocks[i - 1] && continuesInNextColumn(open, block));
      if (carries) {
        run.push(block);
        return;
      }
      finish();
      if (block.kind === 'table' && block.table) run.push(block);
    });
    // The run goes on to the next page only from a table that ends this page's flow.
    if (run[run.length - 1] !== blocks[blocks.length - 1]) finish();
  }
  finish();
}
