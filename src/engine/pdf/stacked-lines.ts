/**
 * Two lines of one column that a line in larger type beside them reaches over: a pull quote or a heading in one
 * column, level with two lines of small text in the next. Clustered by height against the large line, the two
 * small lines joined it, and their words, sorted left to right, were read interleaved (`discussedadopted within
 * detailminor`). Lines stacked one over the other (words of each standing over words of the other) are never one
 * line: such a cluster is parted baseline by baseline. A raised mark or a subscript stands beside its word, not over
 * another line's words, and stays. Pure.
 */
import type { PdfTextItem } from './types.js';

/** Items whose baselines differ by less than this share of the smaller size stand on one baseline. */
const SAME_BASELINE = 0.2;
/** An item of no more characters than this is a mark or a script, never a word of a line of its own here. */
const MARK_CHARS = 3;
/** Word pairs, one over the other, that show two lines stacked: more than one. */
const MIN_STACKED_PAIRS = 2;

/** The cluster's items in groups of one baseline each, top first. */
function baselineGroups(cluster: readonly PdfTextItem[]): PdfTextItem[][] {
  // A cluster mostly comes in baseline order already (clusterLines sorts the page's items so): read as it is then,
  // as a stable sort would leave it, not copied and sorted again.
  const sorted = isInBaselineOrder(cluster) ? cluster : [...cluster].sort((a, b) => a.baseline - b.baseline);
  const groups: PdfTextItem[][] = [];
  for (const item of sorted) {
    const group = groups[groups.length - 1];
    const last = group?.[group.length - 1];
    if (group && last && item.baseline - last.baseline < SAME_BASELINE * Math.min(item.size, last.size)) group.push(item);
    else groups.push([item]);
  }
  return groups;
}

/** Whether a stable sort by baseline would leave the items as they are (no NaN among their baselines). */
function isInBaselineOrder(items: readonly PdfTextItem[]): boolean {
  for (let i = 1; i < items.length; i++) if (!(items[i - 1]!.baseline <= items[i]!.baseline)) return false;
  return true;
}

/**
 * Whether every item stands on one baseline as baselineGroups groups them, told without grouping: most clusters are
 * one line of words on one baseline, and every cluster of every page's lines is asked.
 */
function onOneBaseline(cluster: readonly PdfTextItem[]): boolean {
  let low = Infinity;
  let high = -Infinity;
  let size = Infinity;
  for (const item of cluster) {
    low = Math.min(low, item.baseline);
    high = Math.max(high, item.baseline);
    size = Math.min(size, item.size);
  }
  return high - low < SAME_BASELINE * size;
}

/** A group of marks or scripts (a formula's subscripts `(i)`, note marks): no item of it is a word of a line. */
function isScripts(group: readonly PdfTextItem[]): boolean {
  return group.every((item) => item.str.trim().length <= MARK_CHARS);
}

function baselineOf(group: readonly PdfTextItem[]): number {
  return group.reduce((sum, item) => sum + item.baseline, 0) / group.length;
}

/** How many items of `a` stand over (or under) an item of `b`: overlapping across half the narrower's width. */
function stackedPairs(a: readonly PdfTextItem[], b: readonly PdfTextItem[]): number {
  let pairs = 0;
  for (const upper of a) {
    for (const lower of b) {
      const overlap = Math.min(upper.x1, lower.x1) - Math.max(upper.x0, lower.x0);
      if (overlap > 0.5 * Math.min(upper.x1 - upper.x0, lower.x1 - lower.x0)) {
        pairs++;
        break;
      }
    }
  }
  return pairs;
}

/** The cluster as it is, or parted into its baselines where two of its lines of words stand one over the other. */
export function partStackedLines(cluster: PdfTextItem[]): PdfTextItem[][] {
  if (cluster.length < 2 * MIN_STACKED_PAIRS || onOneBaseline(cluster)) return [cluster];
  const groups = baselineGroups(cluster);
  if (groups.length < 2) return [cluster];
  const lines = groups.filter((group) => !isScripts(group));
  const stacked = lines.some((upper, i) => lines.slice(i + 1).some((lower) => stackedPairs(upper, lower) >= MIN_STACKED_PAIRS));
  if (!stacked) return [cluster];
  // Marks and scripts stay with the line of words nearest them, as they would in one line.
  const parted = lines.map((line) => [...line]);
  for (const group of groups) {
    if (!isScripts(group)) continue;
    const at = baselineOf(group);
    let nearest = 0;
    for (let i = 1; i < lines.length; i++) if (Math.abs(baselineOf(lines[i]!) - at) < Math.abs(baselineOf(lines[nearest]!) - at)) nearest = i;
    parted[nearest]!.push(...group);
  }
  return parted;
}
