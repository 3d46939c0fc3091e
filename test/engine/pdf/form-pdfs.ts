/**
 * Business forms written by the fixture writer: an invoice whose line items are a ruled table with its totals set
 * flush right under it, unruled, as a browser prints an invoice.
 */
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { cellRuns, gridOperators } from './ruled-pdfs.js';

export const LINE_ITEMS = [
  ['Description', 'Qty', 'Unit Price', 'Amount'],
  ['Steel brackets, 40 mm', '120', '0.85', '102.00'],
  ['Hex bolts M8, box of 100', '6', '12.40', '74.40'],
  ['Delivery', '1', '15.00', '15.00'],
];

export const TOTALS = [
  ['Subtotal:', '191.40'],
  ['VAT (20%):', '38.28'],
  ['Total Due:', '229.68'],
];

/** A run of `text` whose right edge is at `right` (Helvetica's digits, comma and point are 0.556 and 0.278 em). */
function flushRight(text: string, right: number, y: number, size = 10): TextRun {
  const width = [...text].reduce((sum, ch) => sum + (/[0-9]/.test(ch) ? 0.556 : 0.278), 0) * size;
  return { x: right - width, y, text, size };
}

/**
 * An invoice: a title and its label lines, the ruled table of line items, the totals under its right end (labels
 * and amounts flush right, no rules), then the payment terms across the page.
 */
export function invoicePdf(): Uint8Array {
  const xs = [72, 330, 400, 470, 540];
  const ys = [620, 600, 580, 560, 540];
  const runs: TextRun[] = [
    { x: 72, y: 740, text: 'INVOICE', size: 18, font: 'bold' },
    { x: 72, y: 710, text: 'Invoice No.: INV-2026-0042', size: 10 },
    { x: 72, y: 696, text: 'Invoice Date: 14 March 2026', size: 10 },
    { x: 72, y: 682, text: 'Due Date: 13 April 2026', size: 10 },
    ...cellRuns(LINE_ITEMS, xs, ys, { boldHeader: true }),
    ...TOTALS.flatMap(([label, amount], i) => [
      { x: 420, y: 522 - 14 * i, text: label!, size: 10, font: i === TOTALS.length - 1 ? ('bold' as const) : ('regular' as const) },
      flushRight(amount!, 535, 522 - 14 * i),
    ]),
    { x: 72, y: 460, text: 'Payment terms: 30 days net. Please quote the invoice number with your payment.', size: 8 },
  ];
  return writePdf({ pages: [{ runs, graphics: gridOperators(xs, ys, 'stroke') }] });
}

export const FIELD_LABELS = ['Card number', 'Expiry date', 'Security code'];

/**
 * An application form's payment section: a heading, then a ruled grid whose first row names three fields and
 * whose second row is their boxes, left empty; a signature line under it.
 */
export function paymentFieldsPdf(): Uint8Array {
  const xs = [72, 272, 402, 540];
  const ys = [640, 620, 592];
  const runs: TextRun[] = [
    { x: 72, y: 660, text: '3. Payment', size: 13, font: 'bold' },
    ...cellRuns([FIELD_LABELS], xs, ys),
    { x: 72, y: 560, text: 'Signature: ____________________   Date: ____/____/______', size: 10 },
  ];
  return writePdf({ pages: [{ runs, graphics: gridOperators(xs, ys, 'stroke') }] });
}

/** The values filled in `filledFormPdf`'s fields, each after its label on the same line. */
export const FILLED_FIELDS = [
  ['Full name:', 'Jane Q. Example'],
  ['Email address:', 'jane@example.org'],
] as const;

/**
 * An application form filled in, as a form filler leaves it: labels in 10-point type on the page, each field an
 * AcroForm text field whose value pdf-lib draws in its appearance at the size its box allows (14 points here), and
 * a heading of one size with a colon in it (`Part 2: Declaration`) over a paragraph.
 */
export async function filledFormPdf(): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  page.drawText('Application for membership', { x: 72, y: 720, size: 20, font: bold });
  page.drawText('Part 1: Applicant', { x: 72, y: 680, size: 14, font: bold });
  const form = doc.getForm();
  FILLED_FIELDS.forEach(([label, value], i) => {
    const y = 650 - 30 * i;
    page.drawText(label, { x: 72, y, size: 10, font });
    const field = form.createTextField(`field${i}`);
    field.setText(value);
    field.addToPage(page, { x: 190, y: y - 5, width: 220, height: 18, borderWidth: 0 });
  });
  page.drawText('Part 2: Declaration', { x: 72, y: 540, size: 14, font: bold });
  const declaration = [
    'I declare that the information given in this application is true and complete to the best of my',
    'knowledge, and I agree to notify the membership office of any change to it within thirty days.',
  ];
  declaration.forEach((line, i) => page.drawText(line, { x: 72, y: 515 - 13 * i, size: 10, font }));
  return doc.save({ useObjectStreams: false });
}

/** Check boxes of a form, each with its label and whether it is ticked. */
export const CHOICES: readonly (readonly [label: string, ticked: boolean])[] = [
  ['Email newsletter', true],
  ['Printed magazine', false],
  ['Volunteer work', true],
];

/**
 * A form filled in with pdf-lib's own fields: check boxes ticked or not beside their labels (pdf-lib draws a tick
 * as a path, not as text), two radio buttons with the second chosen.
 */
export async function choicesFormPdf(): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('Membership preferences', { x: 72, y: 720, size: 18, font });
  const form = doc.getForm();
  CHOICES.forEach(([label, ticked], i) => {
    const y = 680 - 26 * i;
    const box = form.createCheckBox(`choice${i}`);
    box.addToPage(page, { x: 72, y: y - 2, width: 12, height: 12 });
    if (ticked) box.check();
    page.drawText(label, { x: 92, y, size: 11, font });
  });
  const plan = form.createRadioGroup('plan');
  ['Monthly', 'Yearly'].forEach((option, i) => {
    plan.addOptionToPage(option, page, { x: 72 + 120 * i, y: 588, width: 12, height: 12 });
    page.drawText(option, { x: 92 + 120 * i, y: 590, size: 11, font });
  });
  plan.select('Yearly');
  return doc.save({ useObjectStreams: false });
}

/** The answers `valuesOnlyFormPdf` holds, each beside its label; the password field's value is never to be read. */
export const ANSWERS = [
  ['Full name', 'Ada Lovelace'],
  ['City', 'London'],
  ['Country', 'United Kingdom'],
  ['Interests', 'Chess, Music'],
] as const;
export const COMMENTS = ['Please send the newsletter by post.', 'I prefer morning meetings.'] as const;
export const PASSWORD_VALUE = 'hunter2-secret';

/**
 * A form filled in by a script that sets its fields' values and leaves their drawing to the viewer (no appearance
 * streams, `NeedAppearances`), as many form-filling libraries do: its page's text has the labels and none of the
 * answers. A text field, a combo box, a list box with two options chosen, a multi-line comment, a password field, and
 * a ticked check box (its appearance kept: pdf-lib draws its tick as a path). `drawn`: the values drawn as pdf-lib
 * draws them, each at the size its box allows (15 points beside labels of 11).
 */
export async function valuesOnlyFormPdf(drawn = false): Promise<Uint8Array> {
  const { PDFBool, PDFDocument, PDFName, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  page.drawText('Membership renewal', { x: 50, y: 780, size: 18, font: bold });
  const form = doc.getForm();
  const label = (text: string, y: number) => page.drawText(text, { x: 50, y: y + 5, size: 11, font });
  label('Full name', 730);
  const name = form.createTextField('name');
  name.setText(ANSWERS[0][1]);
  name.addToPage(page, { x: 160, y: 730, width: 250, height: 20, font });
  label('City', 695);
  const city = form.createTextField('city');
  city.setText(ANSWERS[1][1]);
  city.addToPage(page, { x: 160, y: 695, width: 250, height: 20, font });
  label('Country', 660);
  const country = form.createDropdown('country');
  country.addOptions(['France', 'United Kingdom']);
  country.select(ANSWERS[2][1]);
  country.addToPage(page, { x: 160, y: 660, width: 250, height: 20, font });
  label('Interests', 625);
  const interests = form.createOptionList('interests');
  interests.addOptions(['Chess', 'Hiking', 'Music']);
  interests.enableMultiselect();
  interests.select(['Chess', 'Music']);
  interests.addToPage(page, { x: 160, y: 625, width: 250, height: 20, font });
  label('Password', 590);
  const password = form.createTextField('password');
  password.enablePassword();
  password.setText(PASSWORD_VALUE);
  password.addToPage(page, { x: 160, y: 590, width: 250, height: 20, font });
  label('Student', 555);
  const student = form.createCheckBox('student');
  student.addToPage(page, { x: 160, y: 557, width: 14, height: 14 });
  student.check();
  label('Comments', 490);
  const comments = form.createTextField('comments');
  comments.enableMultiline();
  comments.setText(COMMENTS.join('\n'));
  comments.addToPage(page, { x: 160, y: 450, width: 300, height: 60, font });
  page.drawText('Return this form to the membership office.', { x: 50, y: 400, size: 11, font });
  if (drawn) return doc.save({ useObjectStreams: false });
  // What a filler that leaves the drawing to the viewer writes: values, no appearances.
  for (const field of form.getFields()) {
    if (field.getName() === 'student') continue;
    for (const widget of field.acroField.getWidgets()) widget.dict.delete(PDFName.of('AP'));
  }
  form.acroForm.dict.set(PDFName.of('NeedAppearances'), PDFBool.True);
  return doc.save({ useObjectStreams: false, updateFieldAppearances: false });
}

/** The answers typed onto `typedOntoFormPdf`'s page, each after its label. */
export const TYPED = [
  ['Name of reviewer:', 'Jane Smith'],
  ['Date of review:', '3 March 2026'],
] as const;
/** A sticky note's text on that page: a comment, not the page's text. */
export const NOTE = 'Check the north figures against the ledger.';

/**
 * A flat form (labels before drawn lines, no fields) answered with a typewriter tool: each answer a free-text
 * annotation over its line, the first with its appearance drawn (as Acrobat writes it), the second without (left for
 * the viewer to draw); and a sticky note beside the text.
 */
export async function typedOntoFormPdf(): Promise<Uint8Array> {
  const { PDFDocument, PDFName, PDFString, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('Quarterly review', { x: 50, y: 780, size: 18, font });
  page.drawText('Sales grew in every region this quarter, led by the north.', { x: 50, y: 740, size: 11, font });
  const ctx = doc.context;
  const annotations = TYPED.map(([label, answer], i) => {
    const y = 700 - 30 * i;
    page.drawText(label, { x: 50, y, size: 11, font });
    page.drawLine({ start: { x: 160, y: y - 2 }, end: { x: 400, y: y - 2 }, thickness: 0.5 });
    const typed = ctx.obj({ Type: 'Annot', Subtype: 'FreeText', Rect: [162, y - 4, 360, y + 13], Contents: PDFString.of(answer), DA: PDFString.of('/Helv 11 Tf 0 g'), F: 4 });
    if (i === 0) {
      const appearance = ctx.stream(`BT /F1 11 Tf 2 4 Td (${answer}) Tj ET`, { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 198, 17], Resources: { Font: { F1: font.ref } } });
      typed.set(PDFName.of('AP'), ctx.obj({ N: ctx.register(appearance) }));
    }
    return ctx.register(typed);
  });
  const note = ctx.obj({ Type: 'Annot', Subtype: 'Text', Rect: [400, 735, 420, 755], Contents: PDFString.of(NOTE), T: PDFString.of('Alex'), F: 4 });
  page.node.set(PDFName.of('Annots'), ctx.obj([...annotations, ctx.register(note)]));
  return doc.save({ useObjectStreams: false });
}

/** The comments `reviewedPdf` holds on its first page: a sticky note and a highlight's, each with its author. */
export const REVIEW_NOTES = [
  ['Alex', 'text', 'Is the second survey described in the appendix?'],
  ['Sam', 'highlight', 'Give the number of households.'],
] as const;

/**
 * Two pages of a report reviewed in a PDF viewer: a sticky note and a highlight with comments on the first page,
 * whose last paragraph goes on over the page break.
 */
export async function reviewedPdf(): Promise<Uint8Array> {
  const { PDFDocument, PDFName, PDFString, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const first = doc.addPage([595, 842]);
  first.drawText('Household survey', { x: 50, y: 780, size: 18, font });
  const lines = [
    'The survey reached every district of the region in the spring, and its teams visited',
    'each household twice. Most of the questions were answered at the first visit, and the',
    'rest at the second, a week later, when the results of the first were checked against',
  ];
  lines.forEach((line, i) => first.drawText(line, { x: 50, y: 100 - 14 * i, size: 11, font }));
  const second = doc.addPage([595, 842]);
  second.drawText('the register of the district and corrected where they differed.', { x: 50, y: 780, size: 11, font });
  second.drawText('The findings are set out by district in the tables that follow.', { x: 50, y: 752, size: 11, font });
  const ctx = doc.context;
  const [note, highlight] = REVIEW_NOTES;
  const annotations = [
    ctx.obj({ Type: 'Annot', Subtype: 'Text', Rect: [520, 95, 540, 115], Contents: PDFString.of(note[2]), T: PDFString.of(note[0]), F: 4 }),
    ctx.obj({ Type: 'Annot', Subtype: 'Highlight', Rect: [50, 83, 250, 97], QuadPoints: [50, 97, 250, 97, 50, 83, 250, 83], Contents: PDFString.of(highlight[2]), T: PDFString.of(highlight[0]), F: 4 }),
  ];
  first.node.set(PDFName.of('Annots'), ctx.obj(annotations.map((annotation) => ctx.register(annotation))));
  return doc.save({ useObjectStreams: false });
}
