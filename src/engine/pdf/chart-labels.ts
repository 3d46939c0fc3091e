/**
 * The text of a chart drawn with vector paths: its tick values, its series' values, its category names and its
 * legend. A chart's category names are often set a size or two above a small body (a slide's, a brochure's) and
 * would pass for headings; they are the chart's labels, read as text where they stand.
 *
 * A chart here is a drawing (figure-regions.ts: paths clustered by proximity, not a grid, a frame or a text box)
 * with at least `MIN_VALUES` lines of bare numbers inside it or beside it: the values a chart's axes and bars
 * carry, which a diagram, a panel of shapes or a banner behind a title does not. Rows of short labels lined up
 * under it (its categories, its legend) are its labels too.
 */
import { figureRegions, MIN_PATHS, type PageText } from './figures/figure-regions.js';
import type { ProtoBlock, Rect } from './types.js';

/** Lines of bare numbers a drawing needs around it to be a chart. */
const MIN_VALUES = 3;

/** A tick value or a data label: digits with their separators, a unit sign or a percent, nothing else. */
const BARE_NUMBER = /^[-+−–]?[$€£¥]?\d[\d\s.,]*%?$/u;

function isBareNumbers(text: string): boolean {
  const trimmed = text.trim();
  // Its first word tells most blocks apart (a paragraph's), before all their words are split: every block of a
  // page with rules or boxes enough for a chart is asked.
  const firstSpace = trimmed.search(/\s/);
  if (!BARE_NUMBER.test(firstSpace < 0 ? trimmed : trimmed.slice(0, firstSpace))) return false;
  const words = trimmed.split(/\s+/);
  return words.length > 0 && words.every((word) => BARE_NUMBER.test(word));
}

/** Rows of at most this many short cells inside a chart are its category labels lined up, not a table. */
const MAX_LABEL_ROWS = 3;
const MAX_LABEL_WORDS = 3;
/**
 * A legend's entries are phrases (`Will not terminate employment`): cells this long are labels still where no cell
 * is a value, or where the rows leave this share of the grid empty, as rows of a chart's labels do, set under groups
 * of bars and not in columns. A table of the chart's data has its values in cells and fills its grid.
 */
const MAX_LEGEND_WORDS = 6;
const SPARSE_SHARE = 1 / 3;
/** A table this narrow, its grid sparse, inside a chart is a column of its labels, however many rows it has. */
const LABEL_COLUMN_WIDTH = 2;

function isLabelRows(block: ProtoBlock): boolean {
  const grid = block.table;
  if (!grid) return false;
  // A column of labels (a horizontal bar chart's categories, a legend stacked down its side) is as long as the
  // chart has bars; a value or a label set beside a few of them leaves its second column mostly empty.
  if (grid.rowCount > MAX_LABEL_ROWS && grid.colCount > LABEL_COLUMN_WIDTH) return false;
  let longest = 0;
  let filled = 0;
  let values = 0;
  for (const cell of grid.cells) {
    const text = cell.text.trim();
    if (!text) continue;
    filled += cell.rowSpan * cell.colSpan;
    longest = Math.max(longest, text.split(/\s+/).length);
    if (isBareNumbers(text)) values++;
  }
  const area = grid.rowCount * grid.colCount;
  const sparse = area - filled >= SPARSE_SHARE * area;
  if (grid.rowCount > MAX_LABEL_ROWS) return sparse && longest <= MAX_LEGEND_WORDS;
  if (longest <= MAX_LABEL_WORDS) return true;
  return longest <= MAX_LEGEND_WORDS && (values === 0 || sparse);
}

/**
 * The lines of bare numbers among `blocks`: a chart's values, whether each stands alone or the layout joined those
 * of a column into one block (values set one above another, as a writer that draws each value apart leaves them).
 */
function valueLines(blocks: readonly ProtoBlock[]): number {
  let lines = 0;
  for (const block of blocks) if (isBareNumbers(block.text)) lines += Math.max(1, block.lines);
  return lines;
}

function centreInside(rect: Rect, region: Rect): boolean {
  const x = (rect.x0 + rect.x1) / 2;
  const y = (rect.y0 + rect.y1) / 2;
  return x >= region.x0 && x <= region.x1 && y >= region.y0 && y <= region.y1;
}

/**
 * The blocks that are labels of a chart drawn on the page, a table among them when it is only a few rows of short
 * labels (the categories under the bars, lined up as cells). `paths`: the page's filled boxes and its rules, in the
 * blocks' units.
 */
export function chartLabels(blocks: readonly ProtoBlock[], paths: readonly Rect[], width: number, height: number): Set<ProtoBlock> {
  const labels = new Set<ProtoBlock>();
  if (paths.length < MIN_PATHS) return labels;
  const flow = blocks.filter((block) => block.kind !== 'rotated');
  // Most pages carry no chart values at all: their paths are never clustered.
  if (valueLines(flow) < MIN_VALUES) return labels;
  // Every block counts as a possible heading: a drawing takes in the text beside it, never the next section's
  // heading above or below it.
  const texts: PageText[] = flow.map((block) => ({
    rect: block.rect,
    chars: block.chars,
    table: block.kind === 'table',
    caption: block.kind === 'caption',
    heading: true,
  }));
  for (const region of figureRegions(paths, texts, width, height)) {
    const inside = flow.filter((block) => block.kind !== 'caption' && centreInside(block.rect, region));
    if (valueLines(inside) < MIN_VALUES) continue;
    for (const block of inside) if (block.kind !== 'table' || isLabelRows(block)) labels.add(block);
    for (const block of flow) if (block.kind === 'table' && setUnder(block, region) && isLabelRows(block)) labels.add(block);
  }
  return labels;
}

/** How far under a chart's drawing (in ems of their type) its axis labels and legend are set. */
const LABELS_REACH = 2;

/**
 * True when `block` stands right under the drawing, within its width: the category names under a chart's axis and
 * its legend, set below the paths that make the plot.
 */
function setUnder(block: ProtoBlock, region: Rect): boolean {
  const { rect } = block;
  const gap = rect.y0 - region.y1;
  if (gap < -0.5 * block.size || gap > LABELS_REACH * block.size) return false;
  const overlap = Math.min(rect.x1, region.x1) - Math.max(rect.x0, region.x0);
  return overlap >= 0.8 * (rect.x1 - rect.x0);
}
