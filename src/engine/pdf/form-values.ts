/**
 * What a filled form's text fields and choices hold, as the page shows it. A form filler may leave a field's value
 * in the form alone, with no appearance drawn for it (`NeedAppearances`, as scripts that fill forms commonly leave
 * them): the page's text then has the labels and none of the answers, which a viewer draws from the value. Such a
 * value becomes text where its field stands, in the type of the page's body. A value the page does draw, at the size
 * its box allows (often bigger than its label), is read in that type too: a form's answer is never a heading. A
 * list box's chosen options are read, not every option it draws. A password field's value is never read, even where
 * a careless filler drew it: a filled one shows a mask, as a viewer's does.
 */
import { FREE_TEXT, isOver, MIN_SIDE, type FormField } from './form-marks.js';
import { median } from './measure.js';
import type { TaggedRun } from './liteparse/page-items.js';
import { BODY_ROLE } from './liteparse/structure-roles.js';
import { append, type PdfTextItem, type Rect } from './types.js';

type WidgetRect = NonNullable<FormField['rect']>;

/** Field flags (PDF 32000-1, tables 226 and 228). */
const MULTILINE = 1 << 12;
const PASSWORD = 1 << 13;

/** Fields whose value is text a reader sees in the box: a free-text annotation's (text typed onto the page) too. */
const VALUE_FIELDS = new Set(['text', 'combobox', 'listbox', FREE_TEXT]);

/** A value's glyphs are about this many ems wide on average (a box too narrow for it holds it all the same). */
const CHAR_EM = 0.5;
/** A value's lines follow each other at this many ems. */
const LINE_EM = 1.15;
/** A one-line value is set no taller than this share of its box. */
const BOX_SHARE = 0.7;
/** Where a value starts inside its box, in points (a field's padding). */
const PADDING = 2;

/**
 * What a filled password field shows in place of its value, as a viewer masks it: always as long, so that nothing of
 * the value, its length included, is read.
 */
export const PASSWORD_MASK = '••••••••';

/** The text a field shows: a text field's value (masked for a password), a choice's chosen options; undefined if empty. */
function shownValue(field: FormField): string | undefined {
  if (!VALUE_FIELDS.has(field.fieldType)) return undefined;
  if (((field.fieldFlags ?? 0) & PASSWORD) !== 0) return field.value ? PASSWORD_MASK : undefined;
  const chosen = field.fieldType === 'listbox' && field.selectedOptions && field.selectedOptions.length > 0 ? field.selectedOptions.join(', ') : field.value;
  return chosen !== undefined && chosen.trim().length > 0 ? chosen : undefined;
}

/** Fields with a value to read and a box to read it in. */
function valueFields(fields: readonly FormField[] | undefined): { field: FormField; rect: WidgetRect; value: string }[] {
  const out: { field: FormField; rect: WidgetRect; value: string }[] = [];
  for (const field of fields ?? []) {
    const rect = field.rect;
    const value = shownValue(field);
    if (!rect || value === undefined || Math.min(rect.width, rect.height) < MIN_SIDE) continue;
    // A one-line box taller than wide is a field set on its side: its drawn text is read as turned text, and a value
    // set level across it would be read twice, or across what lies beside it.
    if (rect.height > rect.width && ((field.fieldFlags ?? 0) & MULTILINE) === 0 && field.fieldType !== 'listbox') continue;
    out.push({ field, rect, value });
  }
  return out;
}

/**
 * The page's body size: the median size of its items outside the form's value boxes; undefined when it has none
 * (a page of fields alone keeps its sizes).
 */
function bodySize(items: readonly PdfTextItem[], rects: readonly WidgetRect[]): number | undefined {
  const sizes: number[] = [];
  for (const item of items) if (!rects.some((rect) => isOver(item, rect))) sizes.push(item.size);
  return sizes.length > 0 ? median(sizes) : undefined;
}

/** Fields whose drawn text is not their value as read: a list box draws every option it offers. */
const DRAWN_REPLACED = new Set(['listbox']);

/** What reading a page's form fields did to its items. */
export interface FilledFields {
  /**
   * The boxes whose drawn text gave way to what they hold: a table read from the page's text as drawn (LiteParse's)
   * holds that text, and must not stand.
   */
  replaced: Rect[];
  /** The page's items that are the form's answers, drawn or added. */
  answers: PdfTextItem[];
  /** The boxes of the fields that hold an answer. */
  answered: Rect[];
}

const NONE: FilledFields = { replaced: [], answers: [], answered: [] };

/**
 * Reads what the form's fields hold into the page's items (`items` is changed in place: they are the page's own,
 * just made). A value no text in its box shows is added there; text drawn in a value's box is set no bigger than
 * the body's type; a list box's drawn options and a password's drawn text give way to its chosen options and its
 * mask. Nothing changes on a page without such fields.
 */
export function fillFormFields(fields: readonly FormField[] | undefined, items: PdfTextItem[]): FilledFields {
  const found = valueFields(fields);
  if (found.length === 0) return NONE;
  const size = bodySize(items, found.map((entry) => entry.rect));
  if (size === undefined) return NONE;
  const replaced = new Set<PdfTextItem>();
  const replacedBoxes: Rect[] = [];
  const answers: PdfTextItem[] = [];
  const added: PdfTextItem[] = [];
  const answered: Rect[] = [];
  for (const { field, rect, value } of found) {
    const box: Rect = { x0: rect.x, y0: rect.y, x1: rect.x + rect.width, y1: rect.y + rect.height };
    answered.push(box);
    let over = items.filter((item) => isOver(item, rect));
    const password = value === PASSWORD_MASK;
    if (password && over.length > 0 && over.every((item) => MASKS.test(item.str))) continue;
    if ((password || DRAWN_REPLACED.has(field.fieldType)) && over.length > 0) {
      for (const item of over) replaced.add(item);
      replacedBoxes.push(box);
      over = [];
    }
    // Text drawn in the box is what a reader sees: the value as the form formats it (`(123) 456-7890` for
    // `1234567890`), or a label printed inside it.
    for (const item of over) if (item.size > size) item.size = size;
    append(answers, over);
    if (over.length === 0) append(added, valueItems(field, rect, value, size, labelBaseline(items, rect)));
  }
  if (replaced.size > 0) {
    let kept = 0;
    for (const item of items) if (!replaced.has(item)) items[kept++] = item;
    items.length = kept;
  }
  append(items, added);
  append(answers, added);
  return { replaced: replacedBoxes, answers, answered };
}

/** How far (pt) a field's border may be drawn outside its box (LibreOffice frames a control 2.5 pt out). */
const BORDER_SLACK = 4;

/**
 * `rects` (a page's rules or filled boxes) less those drawn as part of an answered field (its border, its
 * background): a filled field's bottom border is no blank to fill in, nor its frame a table's cell.
 */
export function withoutFieldFrames(rects: Rect[], answered: readonly Rect[]): Rect[] {
  if (answered.length === 0) return rects;
  return rects.filter(
    (rect) =>
      !answered.some(
        (box) => rect.x0 >= box.x0 - BORDER_SLACK && rect.x1 <= box.x1 + BORDER_SLACK && rect.y0 >= box.y0 - BORDER_SLACK && rect.y1 <= box.y1 + BORDER_SLACK,
      ),
  );
}

/**
 * The answers as body text of a tagged page, for its structure roles (tagged-blocks.ts): a widget's text is drawn
 * by its annotation, outside the page's marked content, and would otherwise be taken for an untagged artifact (a
 * name filled in at the page's top for its running head).
 */
export function answerRuns(answers: readonly PdfTextItem[]): TaggedRun[] {
  return answers.map((item) => ({ x0: item.x0, x1: item.x1, baseline: item.baseline, size: item.size, chars: item.str.length, role: BODY_ROLE, element: FORM_ELEMENT }));
}

/** The structure element the answers' runs belong to: none of the tree's (whose elements count from 0). */
const FORM_ELEMENT = -1;

/** A viewer's mask of a password: bullets, dots, asterisks. */
const MASKS = /^[\s•●∗*·]+$/u;

/** How far (ems of its type) below a box a label beside it may stand on its line (a control set on the text's line). */
const LABEL_BELOW_EM = 0.6;

/**
 * The baseline of the text just left of a box and level with it (`Employee name:` before its field), which a
 * one-line value is read on: a word processor sets a control's box on the line of the text around it, its value
 * higher than that text's baseline, and they are one line to a reader.
 */
function labelBaseline(items: readonly PdfTextItem[], rect: WidgetRect): number | undefined {
  let best: PdfTextItem | undefined;
  for (const item of items) {
    if (item.x1 > rect.x + PADDING || item.baseline < rect.y || item.baseline > rect.y + rect.height + LABEL_BELOW_EM * item.size) continue;
    if (!best || item.x1 > best.x1) best = item;
  }
  return best?.baseline;
}

/** The items of `value` set in its field's box; a one-line value on its label's line (`label`) where it has one. */
function valueItems(field: FormField, rect: WidgetRect, value: string, size: number, label: number | undefined): PdfTextItem[] {
  const multiline = ((field.fieldFlags ?? 0) & MULTILINE) !== 0 || /[\r\n]/u.test(value);
  const lineSize = multiline ? size : Math.min(size, BOX_SHARE * rect.height);
  const start = rect.x + PADDING;
  const right = Math.max(start + lineSize, rect.x + rect.width);
  const out: PdfTextItem[] = [];
  value.split(/\r\n|\r|\n/u).forEach((line, i) => {
    const str = line.trim();
    if (str.length === 0) return;
    out.push({
      str,
      x0: start,
      x1: Math.min(right, start + CHAR_EM * lineSize * str.length),
      baseline: multiline ? rect.y + PADDING + lineSize * (0.8 + LINE_EM * i) : (label ?? rect.y + rect.height / 2 + 0.35 * lineSize),
      size: lineSize,
      fontName: 'form-field',
      bold: false,
      monospace: false,
      rtl: false,
    });
  });
  return out;
}
