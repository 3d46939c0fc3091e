/**
 * A page's form widgets and free-text annotations as pdfjs reads them from its annotations, in the shape LiteParse's
 * native module gives (form-marks.ts), so that a PDF read by the pdfjs path keeps its check boxes' state, its fields'
 * values and the text typed onto it as a PDF LiteParse reads does.
 */
import { FREE_TEXT, type FormField } from './form-marks.js';

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
  contentsObj?: { str?: unknown } | undefined;
}

/** pdfjs's AnnotationType.WIDGET and FREETEXT. */
const WIDGET = 20;
const FREETEXT = 3;

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

/** The widgets of a page's form among its annotations (`getAnnotations()`), in viewport coordinates. */
export function pdfjsFormFields(annotations: readonly unknown[], transform: readonly number[]): FormField[] {
  const fields: FormField[] = [];
  for (const annotation of annotations) {
    const data = annotation as WidgetData;
    const typed = data.contentsObj?.str;
    if (data.annotationType === FREETEXT && data.hidden !== true && typeof typed === 'string' && typed.length > 0 && Array.isArray(data.rect) && data.rect.length === 4) {
      fields.push({ fieldType: FREE_TEXT, value: typed, rect: viewportRect(data.rect as number[], transform) });
      continue;
    }
    if (data.annotationType !== WIDGET || data.hidden === true || !Array.isArray(data.rect) || data.rect.length !== 4) continue;
    const fieldType = fieldTypeOf(data);
    if (!fieldType) continue;
    const field: FormField = { fieldType, rect: viewportRect(data.rect as number[], transform) };
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
  return fields;
}
