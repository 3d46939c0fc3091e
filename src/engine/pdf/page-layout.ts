/**
 * One page's layout, from normalised items to blocks in reading order: margin-zone candidates (headers,
 * footers) apart, columns and bands, then per region lines → tables → paragraphs, lists, code. Pure.
 */
import { countCodePointsBesideSpaces } from './white-space.js';
import { detectGutters, interleaveAcross, orderRegions, pageRegions, proseOnEverySide, type Gutter, type Region } from './columns.js';
import { bandRegions } from './column-bands.js';
import { linesMarkdown } from './contents.js';
import { splitZones } from './furniture.js';
import { addToHistogram, bodySizeOf, type SizeHistogram } from './headings.js';
import { buildLines, isJustifiedProse, isUnbrokenProse } from './lines.js';
import { escapeMarkdownText } from './markdown.js';
import { buildBlocks } from './paragraphs.js';
import { groupRotated } from './rotated.js';
import { withTurnedHeaders } from './turned-headers.js';
import { findBoxTables } from './box-tables.js';
import { findRuledTables, type RuledTable } from './ruled-tables.js';
import type { Ruling } from './rulings.js';
import { gridOfRows, gridRows, renderTableGrid } from './table-grid.js';
import { tableParts } from './table-parts.js';
import { findKeyFigures } from './key-figures.js';
import { isCardRowTable } from './card-grid.js';
import { holdsPanels } from './panels.js';
import { isFormulaPieces, isNumberedList, listColumns, readAsLines, readsAsTable, type SideList } from './table-kinds.js';
import { numbersApart } from './numbers-apart.js';
import { cellsHoldText, foundTableFrom, foundTableHoldsRuled, itemsTheCellsHold, ownReadingHoldsMore, repeatsText } from './table-choice.js';
import { withoutProseEdges } from './table-prose-edges.js';
import { withTextRoundAsides } from './aside-wrap.js';
import { coversContents, mayBeContents } from './found-contents.js';
import { withContentsWhole } from './contents-runs.js';
import { isSlideFrame } from './table-slide-frame.js';
import { itemsInside, withHeaderAbove } from './table-header-above.js';
import { inRightToLeftOrder } from './rtl-tables.js';
import { findTables, type FoundTable as RegionTable } from './tables.js';
import { chartLabels } from './chart-labels.js';
import { hasFilledRows } from './filled-rows.js';
import { withColumnNotesLast } from './column-notes.js';
import { runsOnBelow } from './table-runs-on.js';
import { joinedAtLabelRows } from './table-label-rows.js';
import { runInLabelsApart, sideLabelsFirst } from './side-labels.js';
import { abstractLeadApart } from './abstract-lead.js';
import { flushRightNotesApart } from './flush-right-notes.js';
import { placeDropCaps } from './drop-caps.js';
import { withoutLineNumbers } from './line-numbers.js';
import { withDrawnBlanks } from './drawn-blanks.js';
import { withAlignedHeaders } from './aligned-header.js';
import { findAuthorBlocks } from './author-stacks.js';
import { CODE_LINE_SHARE, monospaceShare, type RotatedItem } from './text-items.js';
import { sourceCodeOf } from './source-code.js';
import { findCharacterTables, holdsCellBorders } from './character-tables.js';
import type { TaggedRun } from './liteparse/page-items.js';
import type { StructureMark } from './liteparse/structure-roles.js';
import { lineMarkFinder } from './tagged-blocks.js';
import { median, overlaps } from './measure.js';
import { staggeredChannel } from './staggered-sides.js';
import { repeatedHeaderLine, tableUnderHeader } from './table-going-on.js';
import { append, type FoundTable, type PdfTextItem, type ProtoBlock, type Rect, type TextLine } from './types.js';

export interface PageLayoutInput {
  items: readonly PdfTextItem[];
  rotated?: readonly RotatedItem[];
  /** The page's ruling lines (cell borders), viewport space. */
  rulings?: readonly Ruling[];
  /** The page's filled rectangles (cells of tables drawn as boxes), viewport space. */
  boxes?: readonly Rect[];
  /** Tables another reader found on the page (LiteParse): their text leaves the flow as ruled tables' does. */
  tables?: readonly FoundTable[];
  /** On a tagged page: its text's roles in the structure tree (headings apart from the text around them). */
  tagged?: readonly TaggedRun[];
  /**
   * The page before ended in a code block, in a document of proportional text: a page all in monospace goes on with
   * the listing (code), not a typewriter page's text.
   */
  codeGoesOn?: boolean;
  /**
   * The header row of the table the page before ended with: a line repeating it at this page's top heads the
   * table's rows going on, however few (one row under it is a table's too).
   */
  tableGoesOn?: readonly string[];
  width: number;
  height: number;
}

export interface PageLayout {
  blocks: ProtoBlock[];
  /** Body-text font sizes by characters (margin zones left out), for the document's body size. */
  sizes: SizeHistogram;
  /** Characters in bold among those counted in `sizes`, by size. */
  boldSizes: SizeHistogram;
}

/** Prose lines that reach the prose's right edge, at least, for it to stand for the region's (ems of their size). */
const FULL_PROSE_LINES = 3;
const EDGE_EM = 0.5;

/**
 * The region's right edge as its prose sets it, where lines of code run on past the margin (a dump, a long command
 * in a listing): measured from those, every line of the paragraphs read as ended short, each a paragraph of its own.
 * `x1` where no prose reaches a common edge, or no code goes past it.
 */
function proseEdge(lines: readonly TextLine[], x1: number): number {
  let edge = -Infinity;
  let code = -Infinity;
  for (const line of lines) {
    if (line.monoShare >= CODE_LINE_SHARE) code = Math.max(code, line.x1);
    else edge = Math.max(edge, line.x1);
  }
  if (!(code > edge) || !Number.isFinite(edge)) return x1;
  let full = 0;
  for (const line of lines) if (line.monoShare < CODE_LINE_SHARE && line.x1 >= edge - EDGE_EM * line.size) full++;
  return full >= FULL_PROSE_LINES ? Math.min(x1, edge) : x1;
}

/** The body's first and last lines, top to bottom. */
function edgeLines(body: readonly TextLine[]): { top: TextLine | undefined; bottom: TextLine | undefined } {
  let top: TextLine | undefined;
  let bottom: TextLine | undefined;
  for (const line of body) {
    if (!top || line.top < top.top) top = line;
    if (!bottom || line.top > bottom.top) bottom = line;
  }
  return { top, bottom };
}

/** What every region of a page is laid out with. */
interface RegionContext {
  zoneOf: Map<PdfTextItem, 'top' | 'bottom'>;
  monospaceBody: boolean;
  markOf: ((line: TextLine) => StructureMark | undefined) | undefined;
  bodySize: number | undefined;
  /** The page's filled boxes: rows drawn as bands tell a table of bulleted cells from lists side by side. */
  boxes: readonly Rect[];
  /** The header row of a table the page before ended with (PageLayoutInput.tableGoesOn). */
  tableGoesOn: readonly string[] | undefined;
}

/**
 * The region's tables with the one going on under the header row repeated at line `at` (-1: none), laid out under
 * its labels (table-going-on.ts) where the aligned text read no table there or fewer columns than the labels.
 */
function withTableGoingOn(lines: readonly TextLine[], at: number, tables: RegionTable[]): RegionTable[] {
  if (at < 0) return tables;
  const found = tables.find((table) => table.start <= at && table.end > at);
  if (found && found.start === at && found.grid.colCount >= lines[at]!.cells.length) return tables;
  const goingOn = tableUnderHeader(lines, at);
  if (!goingOn) return tables;
  const apart = tables.filter((table) => table.end <= goingOn.start || table.start >= goingOn.end);
  return [...apart, goingOn].sort((a, b) => a.start - b.start);
}

/** Lays out one region: its own lines (baselines local to the column), tables first, then text blocks. */
function layoutRegion(
  items: PdfTextItem[],
  x0: number,
  x1: number,
  context: RegionContext,
  /** The region's lines when already built from the same items (a page of one region). */
  built?: TextLine[],
) {
  const { zoneOf, monospaceBody, markOf, bodySize, boxes } = context;
  const lines = flushRightNotesApart(sideLabelsFirst(runInLabelsApart(abstractLeadApart(built ?? buildLines(items)))), x1);
  for (const line of lines) {
    const first = line.cells[0]?.items[0];
    const zone = first ? zoneOf.get(first) : undefined;
    if (zone && line.cells.every((cell) => cell.items.every((item) => zoneOf.get(item) === zone))) line.zone = zone;
  }
  // On a typewriter page the font says nothing of code: a program's lines tell it themselves.
  const sourceCode = monospaceBody ? sourceCodeOf(lines) : undefined;
  const blockOptions = { deferHyphens: true, monospaceBody, ...(sourceCode ? { sourceCode } : {}), ...(markOf ? { markOf } : {}), ...(bodySize ? { bodySize } : {}) };
  // Justified prose whose words are set wide apart lines up like a table's cells: it stays prose. Code whose
  // comments stand in a column does too: it stays code.
  // A table going on from the page before, under the header row it repeats, may hold a single row here.
  const found = withContentsWhole(
    lines,
    withTableGoingOn(lines, repeatedHeaderLine(lines, context.tableGoesOn), findTables(lines, { skipMonospace: !monospaceBody })).filter(
      (table) =>
        !isJustifiedProse(lines.slice(table.start, table.end)) &&
        !isFormulaPieces(table.rows) &&
        !holdsCode(lines.slice(table.start, table.end), sourceCode) &&
        // A numbered list whose numbers stand apart from its items is read as a list, by its lines.
        !(isNumberedList(table.rows) && numbersApart(lines.slice(table.start, table.end), bodySize).some((marker) => marker !== null)),
    ),
  );
  // A paper's authors side by side line up like a table's cells: read author by author, as lines (table-kinds.ts).
  const authors = findAuthorBlocks(lines).map((block) => ({ ...block, grid: gridOfRows(block.rows), markdown: '' }));
  // So do key figures side by side over their words: read figure by figure (key-figures.ts).
  const keyFigures = findKeyFigures(lines).map((block) => ({ ...block, rows: [block.tiles], grid: gridOfRows([block.tiles]), markdown: '' }));
  const stacks = [...authors, ...keyFigures];
  const aligned = withAlignedHeaders(lines, found);
  const tables: ((typeof aligned)[number] & { tiles?: string[] })[] =
    stacks.length === 0 ? aligned : [...stacks, ...aligned.filter((table) => !stacks.some((block) => table.start < block.end && block.start < table.end))].sort((a, b) => a.start - b.start);
  const blocks: ProtoBlock[] = [];
  let next = 0;
  const region = { x0, x1: monospaceBody ? x1 : proseEdge(lines, x1) };
  for (const table of tables) {
    if (table.start > next) append(blocks, buildBlocks(lines.slice(next, table.start), region, blockOptions));
    const tableLines = lines.slice(table.start, table.end);
    // Two blocks set side by side, each at its own pitch (an invoice's sender beside its number and dates): each
    // side laid out on its own, the left one first.
    const channel = table.tiles ? undefined : staggeredChannel(tableLines, STAGGERED_CHANNEL_EM * median(tableLines.map((line) => line.size)));
    if (channel) {
      const middle = (channel.x0 + channel.x1) / 2;
      const cells = tableLines.flatMap((line) => line.cells);
      for (const side of [cells.filter((cell) => cell.x1 <= middle), cells.filter((cell) => cell.x0 >= middle)]) {
        const items = side.flatMap((cell) => cell.items);
        append(blocks, layoutRegion(items, Math.min(...items.map((item) => item.x0)), Math.max(...items.map((item) => item.x1)), context));
      }
      next = table.end;
      continue;
    }
    if (table.tiles) {
      // Each figure with its words, in the words' type: a figure in display type is no heading.
      const words = textBlockOf(tableLines.slice(1), table.rect);
      for (const tile of table.tiles) blocks.push({ ...words, kind: 'paragraph', markdown: escapeMarkdownText(tile), text: tile, chars: countCodePointsBesideSpaces(tile) });
      next = table.end;
      continue;
    }
    // Lists side by side line up like a table: each column a list, in turn. A table whose rows are drawn as filled
    // bands is a table, bullets in its cells or not.
    const lists = hasFilledRows(table.rect, boxes, tableLines[0]?.size ?? 0) ? undefined : listColumns(table.rows);
    if (lists) {
      blocks.push(sideListsBlock(lists, tableLines, table.rect));
      next = table.end;
      continue;
    }
    // A table of contents and a chart's labels line up like tables, but read as lines of text.
    const asLines = readAsLines(table.rows);
    if (asLines) {
      blocks.push({ ...textBlockOf(tableLines, table.rect), kind: 'paragraph', markdown: linesMarkdown(asLines), text: asLines.join('\n') });
      next = table.end;
      continue;
    }
    blocks.push(...tableParts({
      kind: 'table',
      markdown: table.markdown,
      text: table.rows.map((row) => row.join(' ')).join('\n'),
      table: table.grid,
      rect: table.rect,
      lines: tableLines.length,
      size: tableLines[0]?.size ?? 0,
      bold: false,
      chars: tableLines.reduce((sum, line) => sum + line.chars, 0),
    }));
    next = table.end;
  }
  if (next < lines.length) append(blocks, buildBlocks(lines.slice(next), region, blockOptions));
  return blocks;
}

/** Half the lines or more are source code. */
function holdsCode(lines: readonly TextLine[], sourceCode: ReadonlySet<TextLine> | undefined): boolean {
  return sourceCode !== undefined && sourceCode.size > 0 && lines.length > 0 && lines.filter((line) => sourceCode.has(line)).length >= lines.length / 2;
}

/** The lines whose middle is inside `rect`. */
function linesInside(rect: Rect, lines: readonly TextLine[]): TextLine[] {
  return lines.filter((line) => {
    const x = (line.x0 + line.x1) / 2;
    const y = (line.top + line.bottom) / 2;
    return x >= rect.x0 && x <= rect.x1 && y >= rect.y0 && y <= rect.y1;
  });
}

/** Lists set side by side, as one list block: each column's list in turn (its label over it), a blank line between. */
function sideListsBlock(lists: readonly SideList[], lines: readonly TextLine[], rect: Rect): ProtoBlock {
  const markdown = lists.map((list) => {
    const items = list.items.map(({ marker, text }) => {
      // Markdown numbers a list from its first item; a letter or roman enumerator is kept before the text.
      if (marker.number !== undefined && marker.label === undefined) return `${marker.number}. ${escapeMarkdownText(text)}`;
      return `- ${marker.label ? `${marker.label} ` : ''}${escapeMarkdownText(text)}`;
    });
    return [...(list.label === undefined ? [] : [escapeMarkdownText(list.label), '']), ...items].join('\n');
  });
  const text = lists.map((list) => [...(list.label === undefined ? [] : [list.label]), ...list.items.map((item) => item.text)].join('\n'));
  return { ...textBlockOf(lines, rect), kind: 'list', markdown: markdown.join('\n\n'), text: text.join('\n\n') };
}

/** Size, weight and extent of a run of lines read as one text block. */
function textBlockOf(lines: readonly TextLine[], rect: Rect): Pick<ProtoBlock, 'rect' | 'lines' | 'size' | 'bold' | 'chars'> {
  const chars = lines.reduce((sum, line) => sum + line.chars, 0);
  const bold = lines.reduce((sum, line) => sum + (line.bold ? line.chars : 0), 0);
  return { rect, lines: lines.length, size: lines[0]?.size ?? 0, bold: chars > 0 && bold >= 0.7 * chars, chars };
}

/** A ruled table as a block, and its text (its items' lines, built here unless given) counted with the page's body text. */
function ruledTableBlock(
  table: Pick<RuledTable, 'items' | 'rows' | 'rect' | 'markdown' | 'grid'>,
  sizes: SizeHistogram,
  boldSizes: SizeHistogram,
  lines: readonly TextLine[] = buildLines(table.items),
): ProtoBlock {
  let chars = 0;
  for (const line of lines) {
    addToHistogram(sizes, line.size, line.chars);
    if (line.bold) addToHistogram(boldSizes, line.size, line.chars);
    chars += line.chars;
  }
  return {
    kind: 'table',
    markdown: table.markdown,
    text: table.rows.map((row) => row.join(' ')).join('\n'),
    table: table.grid,
    rect: table.rect,
    lines: table.rows.length,
    size: table.items[0]?.size ?? 0,
    bold: false,
    chars,
  };
}

/** `typed`: the page's text is monospaced (a typewriter page), where code's aligned columns may be columns. */
function regionsOf(lines: readonly TextLine[], body: readonly TextLine[], rtl: boolean, typed: boolean): Region[] {
  const pageWide = pageRegions(lines, body, rtl);
  // No columns down the whole page: a band of it may still have its own (text beside a side caption).
  return pageWide.length === 1 && pageWide[0]!.kind === 'full' ? (bandRegions(lines, body, rtl, typed) ?? pageWide) : pageWide;
}

/**
 * Diagonal text at least this many times the page's body size, and this many points, is a watermark ("DRAFT",
 * "CONFIDENTIAL" across the page): furniture, out of the Markdown as running heads are. Chart labels set at a
 * slant are the body's size or smaller.
 */
const WATERMARK_SIZE_RATIO = 2;
const WATERMARK_MIN_SIZE = 24;

/** A table at least this share of the text's width wide, nothing beside it, runs across the page's columns. */
const ACROSS_COLUMNS_SHARE = 0.6;
/**
 * A strip of the page this many ems tall with no text across any column parts a page set in columns (a chart or
 * a picture between two bands of columns): far taller than the space before a heading.
 */
const PARTING_STRIP_EM = 5;

/**
 * Where something runs across a page set in columns (a newsletter's table or chart between two bands of two
 * columns), the regions of each band between them, band after band: the columns above it are read before it, the
 * ones under it after. Without this, the table's text having left the flow (or a chart holding none), the gutter
 * ran down the whole page, and the first column's lower part was read before the second column's upper part. Cut
 * at tables at least ACROSS_COLUMNS_SHARE of the text's width with no text beside them, and at strips of
 * PARTING_STRIP_EM empty across the page. Undefined where nothing parts the columns.
 */
function regionsInBands(
  lines: readonly TextLine[],
  body: readonly TextLine[],
  rtl: boolean,
  tables: readonly ProtoBlock[],
  textX0: number,
  textX1: number,
  typed: boolean,
): Region[] | undefined {
  const width = textX1 - textX0;
  if (!(width > 0) || lines.length < 2) return undefined;
  const sorted = [...lines].sort((a, b) => a.top - b.top);
  const inBody = new Set(body);
  const cuts: { y: number; strip: boolean }[] = tables
    .filter(({ rect }) => rect.x1 - rect.x0 >= ACROSS_COLUMNS_SHARE * width && !lines.some((line) => line.top < rect.y1 && line.bottom > rect.y0))
    .map((table) => ({ y: table.rect.y0, strip: false }));
  let bottom = sorted[0]!.bottom;
  for (const line of sorted.slice(1)) {
    if (line.top - bottom > PARTING_STRIP_EM * line.size) cuts.push({ y: line.top, strip: true });
    bottom = Math.max(bottom, line.bottom);
  }
  const gutters = cuts.length > 0 ? detectGutters(body) : [];
  if (gutters.length === 0) return undefined;
  cuts.sort((a, b) => a.y - b.y);
  const bands: TextLine[][] = [[]];
  for (const line of sorted) {
    const band = cuts.filter((cut) => line.top >= cut.y).length;
    while (bands.length <= band) bands.push([]);
    bands[band]!.push(line);
  }
  // A strip parts the page only between two bands of prose columns: elsewhere (a chart's labels, a figure with
  // text around it) the page is read as one.
  const columned = (band: readonly TextLine[]) => proseOnEverySide(band, gutters);
  const merged: TextLine[][] = [bands[0]!];
  for (let i = 1; i < bands.length; i++) {
    const last = merged[merged.length - 1]!;
    if (cuts[i - 1]!.strip && !(columned(last) && columned(bands[i]!))) merged[merged.length - 1] = [...last, ...bands[i]!];
    else merged.push(bands[i]!);
  }
  const filled = merged.filter((band) => band.length > 0);
  if (filled.length < 2) return undefined;
  return filled.flatMap((band) => regionsOf(band, band.filter((line) => inBody.has(line)), rtl, typed));
}

/**
 * Puts each table before the first block of the flow below its top that it overlaps horizontally (its column's
 * flow), or where none is, after the last such block above it. Tables the flow read itself count as its blocks: a
 * narrow table of totals under a ruled table of line items is the flow's, and the ruled table goes before it.
 * Tables are placed top to bottom, so two that go before the same block keep the page's order.
 */
function insertTables(blocks: ProtoBlock[], tables: readonly ProtoBlock[]): ProtoBlock[] {
  const out = [...blocks];
  const placed = new Set<ProtoBlock>();
  const topDown = [...tables].sort((a, b) => a.rect.y0 - b.rect.y0 || a.rect.x0 - b.rect.x0);
  for (const table of topDown) {
    const at = out.findIndex(
      (block) =>
        !placed.has(block) &&
        block.rect.y0 >= table.rect.y0 - 1 &&
        block.rect.x0 < table.rect.x1 &&
        block.rect.x1 > table.rect.x0,
    );
    if (at >= 0) out.splice(at, 0, table);
    else {
      // Nothing of its column below it (a column holding the table alone under its heading): after the last block of
      // its column above it, not after the whole page.
      const above = out.findLastIndex((block) => block.rect.y1 <= table.rect.y0 + 1 && block.rect.x0 < table.rect.x1 && block.rect.x1 > table.rect.x0);
      if (above >= 0) out.splice(above + 1, 0, table);
      else out.push(table);
    }
    placed.add(table);
  }
  return out;
}

/** A found table as a block over the items inside its rectangle and their lines, counted like a ruled one. */
function foundTableBlock(table: FoundTable, inside: PdfTextItem[], lines: readonly TextLine[], sizes: SizeHistogram, boldSizes: SizeHistogram): ProtoBlock {
  const grid = table.grid ?? gridOfRows(table.rows);
  return ruledTableBlock({ items: inside, rows: table.rows, rect: table.rect, markdown: renderTableGrid(grid), grid }, sizes, boldSizes, lines);
}

/** The text of the lines inside `rect` above `top`. */
function linesAbove(items: readonly PdfTextItem[], rect: Rect, top: number): string[] {
  const above = items.filter((item) => {
    const middle = (item.x0 + item.x1) / 2;
    return item.baseline < top && item.baseline > rect.y0 && middle > rect.x0 && middle < rect.x1;
  });
  return buildLines(above).map((line) => line.text);
}


type CharacterTable = ReturnType<typeof findCharacterTables>[number];

/** Narrowest channel, in ems, between two blocks set side by side (as a band's: column-bands.ts). */
const STAGGERED_CHANNEL_EM = 0.8;

/** Share of a page's body characters in monospace over which the body itself is monospaced. */
const MONOSPACE_BODY = 0.8;
/** Share of a found table's characters in monospace at which it is code, on a page of proportional text. */
const CODE_SHARE = 0.9;

/** How many times the items of the ruled grids it overlaps a box table must hold to stand instead of them. */
const BOX_TABLE_HOLDS_MORE = 2;

export function layoutPage(given: PageLayoutInput): PageLayout {
  // Line numbers in the margin (pleading paper's) are no part of the text.
  const withoutNumbers = withoutLineNumbers(given.items);
  // A form's blanks drawn as lines after their labels read as blanks of underscores, as typed ones do.
  const withBlanks = given.rulings && given.rulings.length > 0 ? withDrawnBlanks(withoutNumbers, given.rulings) : withoutNumbers;
  const page = withBlanks === given.items ? given : { ...given, items: [...withBlanks] };
  // A drop cap is put back as its word's first letter before anything reads lines.
  placeDropCaps(page.items);
  // Column headers turned on their side over a table are read as its header row, flat.
  const rotatedLines = groupRotated(page.rotated ?? []);
  const turned = withTurnedHeaders(page.items, rotatedLines);
  const input = turned ? { ...page, items: turned.items } : page;
  const sizes: SizeHistogram = new Map();
  const boldSizes: SizeHistogram = new Map();
  // Ruled tables first: their text leaves the flow, so columns, margins and paragraphs never see it. Where the
  // cell borders are drawn, docmill's grid is the better reading (BENCHMARKS.md §11); elsewhere a table another
  // reader found takes its text out of the flow the same way.
  // Three rules make a table ruled between its rows only (booktabs: over it, under its header, under it).
  const lined = input.rulings && input.rulings.length >= 3 ? findRuledTables(input.items, input.rulings) : [];
  // Tables drawn as boxes with gutters. Where ruled grids overlap one, the reading that holds more of the text
  // stands: a grid the boxes' edges rule whole reads their spans already, while boxes apart from one another
  // leave the rules only a few boxes' worth of grid.
  const boxed = input.boxes && input.boxes.length > 0 ? findBoxTables(input.items, input.boxes) : [];
  let grids = lined;
  for (const table of boxed) {
    const under = grids.filter((grid) => overlaps(table.rect, grid.rect));
    if (table.items.length < BOX_TABLE_HOLDS_MORE * under.reduce((sum, grid) => sum + grid.items.length, 0)) continue;
    grids = [...grids.filter((grid) => !under.includes(grid)), table];
  }
  // The lines of all the page's items, built once: the tests of found tables read them, and so do docmill's own
  // reading of the aligned text and the flow as long as no table has taken items out (each was a whole page's
  // buildLines, the layout's costliest step). None of their readers changes a line.
  let pageLines: TextLine[] | undefined;
  const linesOfPage = (): TextLine[] => (pageLines ??= buildLines(input.items));
  // A prose line the reader took in at the table's top or bottom goes back to its paragraph; a table of contents
  // it read as tables stays in the flow, to be read as contents lines; a box round a slide's title and text is no
  // table: the page's own reading stands there.
  let pageMonospace: number | undefined;
  let pageCode: ReadonlySet<TextLine> | undefined;
  let pageTyped: CharacterTable[] | undefined;
  // Tables typed with characters: with box-drawing ones anywhere, with `+---+` and `|` on a typewriter page (on a
  // page of proportional text, such lines are kept as typed in a code block).
  // A listing gone on from the page before is code, however much of the page it fills.
  const typewriterPage = (): boolean => (pageMonospace ??= monospaceShare(input.items)) > MONOSPACE_BODY && given.codeGoesOn !== true;
  // Only a page with a cell border among its words is read for them (the page's lines are not built for it).
  const typedTables = (): CharacterTable[] => (pageTyped ??= holdsCellBorders(input.items) ? findCharacterTables(linesOfPage(), typewriterPage()) : []);
  let interleavedGutters: Gutter[] | undefined;
  // A table going on from the page before under its repeated header is the flow's to read, under its labels (the
  // reader's cells over a few rows miss the columns they leave empty).
  const goingOnHeader = given.tableGoesOn && input.tables && input.tables.length > 0 ? linesOfPage()[repeatedHeaderLine(linesOfPage(), given.tableGoesOn)] : undefined;
  const foundParts = (input.tables ?? []).flatMap((table) => {
    if (goingOnHeader && overlaps(table.rect, { x0: goingOnHeader.x0, y0: goingOnHeader.top, x1: goingOnHeader.x1, y1: goingOnHeader.bottom })) return [];
    const insideItems = itemsInside(table.rect, input.items);
    // A reading that repeats the page's words is no table's: a ruled grid there reads it, or the page's lines do.
    if (repeatsText(table.rows, insideItems.map((item) => item.str))) return [];
    // Code set in a monospaced font on a page of proportional prose lines up like a table: it is read as code. So
    // does a typewriter page's source code, its comments in a column.
    if (monospaceShare(insideItems) >= CODE_SHARE && !typewriterPage()) return [];
    if (typewriterPage() && holdsCode(linesInside(table.rect, linesOfPage()), (pageCode ??= sourceCodeOf(linesOfPage())))) return [];
    // A table typed with characters is read from them (a reading of its bars as cells is not).
    if (typedTables().some((typed) => overlaps(typed.rect, table.rect))) return [];
    const inside = buildLines(insideItems);
    if (isSlideFrame(inside)) return [];
    // Two blocks set side by side, each at its own pitch, are no table: the flow reads them block by block.
    if (staggeredChannel(inside, STAGGERED_CHANNEL_EM * median(inside.map((line) => line.size)))) return [];
    const kept = withoutProseEdges(table, inside);
    if (!kept) return [];
    // Two columns of short lines side by side, each at its own pitch (a résumé's contact lines beside its
    // sections): a reading across them is no table's.
    interleavedGutters ??= ((lines) => detectGutters(lines).filter((gutter) => interleaveAcross(lines, gutter)))(linesOfPage());
    if (interleavedGutters.some((gutter) => kept.rect.x0 < gutter.x0 && kept.rect.x1 > gutter.x1)) return [];
    // Boxed sections side by side are no table: the flow reads them section by section (panels.ts).
    if (holdsPanels(kept.rows)) return [];
    // Cards side by side under their names are no table: the flow reads them card by card (card-grid.ts).
    if (isCardRowTable(kept.rect, kept.rows, linesOfPage)) return [];
    // The page's lines only where the rows may be contents (most pages' tables end in no page numbers).
    return mayBeContents(kept) && coversContents(kept, linesOfPage()) ? [] : [kept];
  });
  // A table the reader cut at a row holding only its label (a statement's section label) is one table again.
  const foundTables = joinedAtLabelRows(foundParts, input.items);
  // A grid that is only the first boxes of a larger table another reader found gives way to that table.
  const ruled = grids.filter((grid) => {
    const at = foundTables.findIndex((table) => foundTableHoldsRuled(grid, table));
    if (at < 0) return true;
    // The grid's top is the table's: text above it in the found table's box is a heading or a caption.
    const table = foundTables[at]!;
    foundTables[at] = foundTableFrom(table, grid.rect.y0 - 1, linesAbove(input.items, table.rect, grid.rect.y0));
    return false;
  });
  const inTables = new Set(ruled.flatMap((table) => table.items));
  const tableBlocks = ruled.map((table) => ruledTableBlock(table, sizes, boldSizes));
  // A table typed with characters is read from them, its lines out of the flow as a ruled table's are.
  for (const typed of typedTables()) {
    const typedLines = linesOfPage().slice(typed.start, typed.end);
    const items = typedLines.flatMap((line) => line.cells.flatMap((cell) => cell.items));
    if (items.some((item) => inTables.has(item))) continue;
    for (const item of items) inTables.add(item);
    tableBlocks.push(foundTableBlock(typed, items, typedLines, sizes, boldSizes));
  }
  // docmill's own reading of the aligned text, to keep where it holds more of a table than LiteParse's cells.
  const own =
    foundTables.length > 0
      ? findTables(inTables.size > 0 ? buildLines(input.items.filter((item) => !inTables.has(item))) : linesOfPage()).filter((table) => readsAsTable(table.rows))
      : [];
  const chosen = new Set<(typeof own)[number]>();
  for (const lpTable of foundTables) {
    const better = own.find((candidate) => !chosen.has(candidate) && ownReadingHoldsMore(candidate, lpTable));
    if (better) chosen.add(better);
    const reading = better ? { rect: better.rect, rows: better.rows, grid: better.grid } : lpTable;
    if (ruled.some((other) => overlaps(other.rect, reading.rect)) || !readsAsTable(reading.rows)) continue;
    const free = input.items.filter((item) => !inTables.has(item));
    if (!better && runsOnBelow(reading.rect, free)) continue;
    // Header rows the reader left above the body join the table.
    const table = withHeaderAbove(reading, free, input.rulings) ?? reading;
    const inside = itemsInside(table.rect, free);
    if (inside.length === 0 || !cellsHoldText(table.rows, inside.map((item) => item.str))) continue;
    // Judged before the table's text is counted with the body's: a table not taken leaves its lines to the flow.
    const insideLines = buildLines(inside);
    if (isJustifiedProse(insideLines) || isUnbrokenProse(insideLines)) continue;
    for (const item of itemsTheCellsHold(table.rows, inside)) inTables.add(item);
    tableBlocks.push(foundTableBlock(table, inside, insideLines, sizes, boldSizes));
  }
  const flowItems = inTables.size > 0 ? input.items.filter((item) => !inTables.has(item)) : input.items;
  const lines = inTables.size > 0 ? buildLines(flowItems) : linesOfPage();
  const zones = splitZones(lines, input.height, { bodyElsewhere: tableBlocks.length > 0 });
  let rtlChars = 0;
  let allChars = 0;
  let monoChars = 0;
  for (const line of zones.body) {
    addToHistogram(sizes, line.size, line.chars);
    if (line.bold) addToHistogram(boldSizes, line.size, line.chars);
    allChars += line.chars;
    monoChars += line.monoShare * line.chars;
    if (line.rtl) rtlChars += line.chars;
  }
  // A typewriter-style page (a transcript in Courier): monospace then says nothing about code. A manual's page of
  // examples between sentences of proportional prose is not one, though code holds most of its characters.
  const typed = monoChars > MONOSPACE_BODY * allChars;
  // A listing gone on from the page before fills this one: its columns of fields are no columns of the page.
  const listing = typed && given.codeGoesOn === true;
  const monospaceBody = typed && !listing;
  const zoneOf = new Map<PdfTextItem, 'top' | 'bottom'>();
  // A listing's line at the page's top or foot, next to its other lines, is the listing's, not a running header's or
  // footer's (on a page of proportional text, they are in the text's type).
  const bodyEdge = edgeLines(zones.body);
  const listingAt = (zone: 'top' | 'bottom', line: TextLine) => !monospaceBody && line.monoShare >= CODE_LINE_SHARE && (bodyEdge[zone]?.monoShare ?? 0) >= CODE_LINE_SHARE;
  for (const [zone, zoneLines] of [['top', zones.top], ['bottom', zones.bottom]] as const) {
    for (const line of zoneLines) {
      if (listingAt(zone, line)) continue;
      for (const cell of line.cells) for (const item of cell.items) zoneOf.set(item, zone);
    }
  }
  // Zone lines stay in the flow (a panel title is not furniture until the document says so); the blocks they
  // form are tagged as candidates and decided over the whole document.
  const rtl = rtlChars > allChars / 2;
  let textX0 = Infinity;
  let textX1 = -Infinity;
  for (const line of zones.body) {
    textX0 = Math.min(textX0, line.x0);
    textX1 = Math.max(textX1, line.x1);
  }
  const regions = listing ? orderRegions(lines, [], rtl) : (regionsInBands(lines, zones.body, rtl, tableBlocks, textX0, textX1, monospaceBody) ?? regionsOf(lines, zones.body, rtl, monospaceBody));
  // A page of one full-width region holds every line of the page: those lines are the region's, not built twice.
  const whole = regions.length === 1 && regions[0]!.kind === 'full' && regions[0]!.items.length === flowItems.length;
  const markOf = input.tagged && input.tagged.length > 0 ? lineMarkFinder(input.tagged) : undefined;
  const pageBody = bodySizeOf(sizes);
  const context: RegionContext = { zoneOf, monospaceBody, markOf, bodySize: pageBody, boxes: input.boxes ?? [], tableGoesOn: given.tableGoesOn };
  const laidOut = regions.map((region) => {
    const x0 = region.kind === 'full' ? Math.min(region.x0, textX0) : region.x0;
    const x1 = region.kind === 'full' ? Math.max(region.x1, textX1) : region.x1;
    return { kind: region.kind, blocks: layoutRegion(region.items, x0, x1, context, whole ? lines : undefined) };
  });
  const flowBlocks = withColumnNotesLast(withTextRoundAsides(laidOut), pageBody);
  const blocks = tableBlocks.length > 0 ? insertTables(flowBlocks, tableBlocks.flatMap(tableParts)) : flowBlocks;
  for (const line of turned?.rotated ?? rotatedLines) {
    const inMargin = Number.isFinite(textX0) && (line.rect.x1 <= textX0 + 1 || line.rect.x0 >= textX1 - 1);
    const watermark = line.diagonal && line.size >= Math.max(WATERMARK_MIN_SIZE, WATERMARK_SIZE_RATIO * (pageBody ?? 0));
    blocks.push({
      kind: 'rotated',
      markdown: escapeMarkdownText(line.text),
      text: line.text,
      rect: line.rect,
      lines: 1,
      size: line.size,
      bold: false,
      chars: line.text.replace(/\s/g, '').length,
      furniture: inMargin || watermark,
      ...(watermark ? { watermark } : {}),
    });
  }
  const paths = [...(input.boxes ?? []), ...(input.rulings ?? [])];
  for (const block of chartLabels(blocks, paths, input.width, input.height)) {
    block.chartLabel = true;
    if (block.kind !== 'table' || !block.table) continue;
    // A chart's category labels lined up as cells: read row by row, as the rest of its labels.
    const rows = gridRows(block.table).map((row) => row.filter(Boolean).join(' '));
    Object.assign(block, { kind: 'paragraph', markdown: linesMarkdown(rows), text: rows.join('\n'), table: undefined });
  }
  for (const block of blocks) inRightToLeftOrder(block);
  return { blocks, sizes, boldSizes };
}
