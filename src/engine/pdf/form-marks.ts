/**
 * A form's check boxes and radio buttons, as the text they stand for: ☒ / ☐ for a box ticked or not, ◉ / ◯ for a
 * radio button chosen or not (not ○, which reads as a bullet), where the widget stands, so that "☒ Email newsletter"
 * reads as the form says. Their state lives in the form's fields, not in the page's text: a tick drawn as a path,
 * or an appearance PDFium does not read as text, left no mark, and the answers of a filled form were lost. A widget
 * with text of its own over it (a tick drawn as a glyph) keeps that text. Pure.
 */
import type { PdfTextItem } from './types.js';

/**
 * A widget of a page's form, as LiteParse's native module gives it (`formFields`) and as the pdfjs path makes it from
 * the page's annotations (pdfjs-form-fields.ts); or a free-text annotation, text typed onto the page (a typewriter
 * tool's answers on a form with no fields, a reviewer's text box), read as a filled text field is.
 */
export interface FormField {
  /** `text`, `combobox`, `listbox`, `checkbox`, `radio`, `pushbutton`, `signature`; FREE_TEXT for an annotation. */
  fieldType: string;
  checked?: boolean | undefined;
  /** Viewport coordinates (top-left origin). */
  rect?: { x: number; y: number; width: number; height: number } | undefined;
  /** A text field's text, a choice's chosen option. */
  value?: string | undefined;
  /** The field's flags (PDF 32000-1, 12.7.3.1): multiline, password, combo. */
  fieldFlags?: number | undefined;
  /** A list box's chosen options. */
  selectedOptions?: readonly string[] | undefined;
}

const MARKS: Record<string, readonly [on: string, off: string]> = {
  checkbox: ['☒', '☐'],
  radio: ['◉', '◯'],
};

/** Widgets smaller than this (points) on a side are no boxes anyone ticks or fills (a hidden field's zero rect). */
export const MIN_SIDE = 4;
/** The mark's baseline, as a share of the widget's height down from its top. */
const BASELINE_SHARE = 0.8;

/** The field type of a free-text annotation's text. */
export const FREE_TEXT = 'freetext';

/** A page's annotation as LiteParse's native module gives it (`extractAnnotations`), what this module reads of it. */
export interface NativeAnnotation {
  /** Lower case: `freetext`, `text` (a sticky note), `highlight`, `link`, `widget`… */
  subtype: string;
  contents?: string | undefined;
  /** Its author, where the PDF names one. */
  title?: string | undefined;
  rect?: FormField['rect'];
}

/** The page's form fields, with its free-text annotations as text fields holding their text. */
export function withFreeText(fields: readonly FormField[] | undefined, annotations: readonly NativeAnnotation[] | undefined): readonly FormField[] | undefined {
  const typed = (annotations ?? []).filter((annotation) => annotation.subtype === FREE_TEXT && annotation.contents && annotation.rect);
  if (typed.length === 0) return fields;
  return [...(fields ?? []), ...typed.map((annotation) => ({ fieldType: FREE_TEXT, value: annotation.contents, rect: annotation.rect }))];
}

/** Whether `item` is drawn over the widget at `rect` (its glyphs' box overlaps it). */
export function isOver(item: PdfTextItem, rect: NonNullable<FormField['rect']>): boolean {
  return item.x0 < rect.x + rect.width && item.x1 > rect.x && item.baseline > rect.y && item.baseline - 0.7 * item.size < rect.y + rect.height;
}

/** One item for each check box and radio button without text over it, marking its state. */
export function formFieldMarks(fields: readonly FormField[] | undefined, items: readonly PdfTextItem[]): PdfTextItem[] {
  if (!fields || fields.length === 0) return [];
  const marks: PdfTextItem[] = [];
  for (const field of fields) {
    const pair = MARKS[field.fieldType];
    const rect = field.rect;
    if (!pair || !rect || Math.min(rect.width, rect.height) < MIN_SIDE) continue;
    if (items.some((item) => isOver(item, rect))) continue;
    marks.push({
      str: field.checked ? pair[0] : pair[1],
      x0: rect.x,
      x1: rect.x + rect.width,
      baseline: rect.y + BASELINE_SHARE * rect.height,
      size: Math.min(rect.width, rect.height),
      fontName: 'form-field',
      bold: false,
      monospace: false,
      rtl: false,
    });
  }
  return marks;
}
