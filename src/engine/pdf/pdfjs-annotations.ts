/**
 * A page's annotations as pdfjs reads them (`getAnnotations()`), in the shapes LiteParse's native module gives
 * (form-marks.ts): its form's widgets, and its other annotations (free text, notes, highlights), so that a PDF read
 * by the pdfjs path keeps its check boxes' state, its fields' values, the text typed onto it and its comments as a
 * PDF LiteParse reads does.
 */
import type { FormField, NativeAnnotation } from './form-marks.js';

/** What this module reads of a pdfjs widget annotation's data. */
interface WidgetData {
  annotationType?: unknown;
  fieldType?: unknown;
  rect?: unknown;
  fieldValue?: unknown;
  fieldFlags?: unknown;
  exportValue?: unknown;
  buttonValue?: unknown;
  checkBox?: unknown;
  radioButton?: unknown;
  combo?: unknown;
  hidden?: unknown;
  subtype?: unknown;
  contentsObj?: { str?: unknown } | undefined;
  titleObj?: { str?: unknown } | undefined;
}

/** pdfjs's AnnotationType.WIDGET. */
const WIDGET = 20;

/** A string of an annotation's data (`contentsObj.str`), or undefined. */
function textOf(value: { str?: unknown } | undefined): string | undefined {
  return typeof value?.str === 'string' && value.str.length > 0 ? value.str : undefined;
}

function fieldTypeOf(data: WidgetData): string | undefined {
  if (data.fieldType === 'Tx') return 'text';
  if (data.fieldType === 'Ch') return data.combo === true ? 'combobox' : 'listbox';
  if (data.fieldType !== 'Btn') return undefined;
  if (data.checkBox === true) return 'checkbox';
  return data.radioButton === true ? 'radio' : undefined;
}

/** `rect` ([x1, y1, x2, y2], PDF space) in the viewport (top-left origin) that `transform` maps PDF space to. */
function viewportRect(rect: readonly number[], transform: readonly number[]): NonNullable<FormField['rect']> {
  const [a, b, c, d, e, f] = transform as [number, number, number, number, number, number];
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y] of [[rect[0]!, rect[1]!], [rect[2]!, rect[3]!]] as const) {
    xs.push(a * x + c * y + e);
    ys.push(b * x + d * y + f);
  }
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** A page's annotations (`getAnnotations()`) as its form's widgets and its other annotations, in viewport coordinates. */
export function pdfjsAnnotations(annotations: readonly unknown[], transform: readonly number[]): { fields: FormField[]; annotations: NativeAnnotation[] } {
  const fields: FormField[] = [];
  const others: NativeAnnotation[] = [];
  for (const annotation of annotations) {
    const data = annotation as WidgetData;
    if (data.hidden === true || !Array.isArray(data.rect) || data.rect.length !== 4) continue;
    const rect = viewportRect(data.rect as number[], transform);
    if (data.annotationType !== WIDGET) {
      if (typeof data.subtype !== 'string') continue;
      const other: NativeAnnotation = { subtype: data.subtype.toLowerCase(), rect };
      const contents = textOf(data.contentsObj);
      if (contents !== undefined) other.contents = contents;
      const title = textOf(data.titleObj);
      if (title !== undefined) other.title = title;
      others.push(other);
      continue;
    }
    const fieldType = fieldTypeOf(data);
    if (!fieldType) continue;
    const field: FormField = { fieldType, rect };
    if (typeof data.fieldFlags === 'number') field.fieldFlags = data.fieldFlags;
    const value = data.fieldValue;
    if (fieldType === 'checkbox') field.checked = typeof value === 'string' && value !== 'Off' && value === data.exportValue;
    else if (fieldType === 'radio') field.checked = typeof value === 'string' && value !== 'Off' && value === data.buttonValue;
    else if (Array.isArray(value)) {
      field.selectedOptions = value.filter((option): option is string => typeof option === 'string');
      field.value = field.selectedOptions.join(', ');
    } else if (typeof value === 'string') field.value = value;
    fields.push(field);
  }
  return { fields, annotations: others };
}
