/**
 * A form's check boxes and radio buttons, as the text they stand for: ☒ / ☐ for a box ticked or not, ◉ / ◯ for a
 * radio button chosen or not (not ○, which reads as a bullet), where the widget stands, so that "☒ Email newsletter"
 * reads as the form says. Their state lives in the form's fields, not in the page's text: a tick drawn as a path,
 * or an appearance PDFium does not read as text, left no mark, and the answers of a filled form were lost. A widget
 * with text of its own over it (a tick drawn as a glyph) keeps that text. Pure.
 */
import type { PdfTextItem } from '../types.js';

/** The fields of a LiteParse page's form this module reads (structural: the native module's form field). */
export interface NativeFormField {
  fieldType: string;
  checked?: boolean | undefined;
  /** Viewport coordinates (top-left origin). */
  rect?: { x: number; y: number; width: number; height: number } | undefined;
}

const MARKS: Record<string, readonly [on: string, off: string]> = {
  checkbox: ['☒', '☐'],
  radio: ['◉', '◯'],
};

/** Widgets smaller than this (points) on a side are no boxes anyone ticks (a hidden field's zero rect). */
const MIN_SIDE = 4;
/** The mark's baseline, as a share of the widget's height down from its top. */
const BASELINE_SHARE = 0.8;

/** One item for each check box and radio button without text over it, marking its state. */
export function formFieldMarks(fields: readonly NativeFormField[] | undefined, items: readonly PdfTextItem[]): PdfTextItem[] {
  if (!fields || fields.length === 0) return [];
  const marks: PdfTextItem[] = [];
  for (const field of fields) {
    const pair = MARKS[field.fieldType];
    const rect = field.rect;
    if (!pair || !rect || Math.min(rect.width, rect.height) < MIN_SIDE) continue;
    const x1 = rect.x + rect.width;
    const y1 = rect.y + rect.height;
    const covered = items.some((item) => item.x0 < x1 && item.x1 > rect.x && item.baseline > rect.y && item.baseline - 0.7 * item.size < y1);
    if (covered) continue;
    marks.push({
      str: field.checked ? pair[0] : pair[1],
      x0: rect.x,
      x1,
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
