/**
 * Column headers turned on their side over a table (`Inspected`, `Approved`, `Closed` read bottom to top above
 * narrow columns of yes/no): laid flat as a row of the table, each label where its column is, so the table finds
 * its header row in them. Left rotated, they were read as lines of their own after the page's flow, and the table
 * had no header. Rotated text elsewhere (an identifier down a margin, a turned caption) stays as it is. Pure.
 */
import type { RotatedLine } from './rotated.js';
import type { PdfTextItem } from './types.js';

/** Labels of a header band end within this many ems of one another, where they meet the table. */
const BAND_EM = 0.8;
/** The table's first row starts within this many ems under the labels' feet. */
const FIRST_ROW_EM = 3;
/** A turned label is one line: at most this many ems across. */
const ONE_LINE_EM = 1.6;
/** At most this many words a label. */
const LABEL_WORDS = 5;
/** A horizontal label on the band's line (`Site` over the first column) stands within this many ems of its foot. */
const SAME_LINE_EM = 1;

/** A turned line standing upright (taller than wide) and one line across: a candidate label. */
function isUprightLabel(line: RotatedLine): boolean {
  const width = line.rect.x1 - line.rect.x0;
  const height = line.rect.y1 - line.rect.y0;
  return height > width && width <= ONE_LINE_EM * line.size && line.text.split(/\s+/).length <= LABEL_WORDS;
}

/** Whether a horizontal item lies under the label's column (within an em of its sides). */
function under(label: RotatedLine, item: PdfTextItem): boolean {
  return item.x0 < label.rect.x1 + label.size && item.x1 > label.rect.x0 - label.size;
}

/** The labels of one band: their feet within BAND_EM of the lowest foot, side by side. */
function bands(labels: readonly RotatedLine[]): RotatedLine[][] {
  const byFoot = [...labels].sort((a, b) => a.rect.y1 - b.rect.y1);
  const out: RotatedLine[][] = [];
  for (const label of byFoot) {
    const band = out[out.length - 1];
    if (band && Math.abs(label.rect.y1 - band[0]!.rect.y1) <= BAND_EM * label.size) band.push(label);
    else out.push([label]);
  }
  return out.filter((band) => band.length >= 2);
}

export interface TurnedHeaders {
  items: PdfTextItem[];
  /** The rotated lines left as they are. */
  rotated: RotatedLine[];
}

/**
 * The page's items with each band of turned column labels (among its rotated lines, rotated.ts) laid flat at the
 * foot of the band, on the baseline of a horizontal label beside them where there is one; the rotated lines left.
 * A band is two labels or more whose feet line up, each with text of the page under it in the next FIRST_ROW_EM
 * ems, in two columns at least.
 */
export function withTurnedHeaders(items: readonly PdfTextItem[], rotated: readonly RotatedLine[]): TurnedHeaders | undefined {
  if (rotated.length < 2 || items.length === 0) return undefined;
  const labels = rotated.filter(isUprightLabel);
  if (labels.length < 2) return undefined;
  const flat: PdfTextItem[] = [];
  const taken = new Set<RotatedLine>();
  for (const band of bands(labels)) {
    const foot = Math.max(...band.map((label) => label.rect.y1));
    const size = Math.max(...band.map((label) => label.size));
    const firstRow = items.filter((item) => item.baseline > foot && item.baseline <= foot + FIRST_ROW_EM * size);
    const columns = band.filter((label) => firstRow.some((item) => under(label, item)));
    if (columns.length < 2) continue;
    const left = Math.min(...band.map((label) => label.rect.x0));
    const beside = items.filter((item) => Math.abs(item.baseline - foot) <= SAME_LINE_EM * size && item.x1 <= left);
    const baseline = beside.length > 0 ? beside[0]!.baseline : foot;
    const style = beside[0] ?? firstRow[0]!;
    for (const label of band) {
      taken.add(label);
      flat.push({ ...style, str: label.text, x0: label.rect.x0, x1: label.rect.x1, baseline, size: label.size, rtl: false, spaceBefore: true });
    }
  }
  if (flat.length === 0) return undefined;
  return { items: [...items, ...flat], rotated: rotated.filter((line) => !taken.has(line)) };
}
