/**
 * A form's blanks drawn as lines: a label ending in a colon (`Phone:`, `Signature:`) with a line drawn from just
 * after it along its baseline, to write on. Typed as underscores the blank is text and reads `Name: ____`; drawn,
 * it was no text at all, and two fields on one line ran together (`Phone: Date of birth:`). Each such line reads
 * as a blank of underscores after its label. A line under words (an underline, a rule under a heading) has text
 * on it, and one not led by a label is a rule. Pure.
 */
import type { Ruling } from './rulings.js';
import type { PdfTextItem } from './types.js';

/** The line lies this far under the label's baseline at most, or this far over it (ems of the label's type). */
const BELOW_EM = 0.5;
const ABOVE_EM = 0.2;
/** The line starts within this many ems after the label's end. */
const AFTER_EM = 2;
/** A blank to write in is at least this many ems long. */
const MIN_LENGTH_EM = 3;
/** Underscores stand for the line, one an underscore's width (about half an em), at most this many. */
const UNDERSCORE_EM = 0.5;
const MAX_UNDERSCORES = 40;
const LABEL_END = /:$/u;

function isHorizontal(rule: Ruling): boolean {
  return rule.y0 === rule.y1 && rule.x1 > rule.x0;
}

/** The items with a blank of underscores added along each line drawn after a label to write on. */
export function withDrawnBlanks(items: readonly PdfTextItem[], rulings: readonly Ruling[]): readonly PdfTextItem[] {
  const blanks: PdfTextItem[] = [];
  // The items that may lead a blank, in the page's order, picked once: a page draws many rules (a table's, a
  // form's) and holds few labels, and each rule looked through every item for them.
  let labels: PdfTextItem[] | undefined;
  for (const rule of rulings) {
    if (!isHorizontal(rule)) continue;
    labels ??= items.filter((item) => LABEL_END.test(item.str));
    const label = labels.find((item) => {
      const size = item.size;
      return (
        rule.y0 - item.baseline <= BELOW_EM * size &&
        item.baseline - rule.y0 <= ABOVE_EM * size &&
        rule.x0 >= item.x1 - 1 &&
        rule.x0 - item.x1 <= AFTER_EM * size &&
        rule.x1 - rule.x0 >= MIN_LENGTH_EM * size
      );
    });
    if (!label) continue;
    // Words on the line make it an underline, not a blank.
    const size = label.size;
    const onLine = items.some((item) => item.x0 < rule.x1 && item.x1 > rule.x0 && Math.abs(item.baseline - label.baseline) <= ABOVE_EM * size);
    if (onLine) continue;
    const count = Math.min(MAX_UNDERSCORES, Math.max(3, Math.round((rule.x1 - rule.x0) / (UNDERSCORE_EM * size))));
    blanks.push({ ...label, str: '_'.repeat(count), x0: rule.x0, x1: rule.x1, spaceBefore: true });
  }
  return blanks.length > 0 ? [...items, ...blanks] : items;
}
