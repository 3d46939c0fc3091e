/**
 * Business forms and invoices: their parts read in the page's order, the labels of a form's boxes as a table.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emptyFieldRows, namesFields } from '../../../src/engine/pdf/form-fields.js';
import { allBlocks, convertBytes, convertWithPdfjs, mainMarkdown } from './helpers.js';
import { ANSWERS, CHOICES, choicesFormPdf, COMMENTS, FIELD_LABELS, FILLED_FIELDS, filledFormPdf, invoicePdf, PASSWORD_VALUE, paymentFieldsPdf, NOTE, REVIEW_NOTES, reviewedPdf, TYPED, typedOntoFormPdf, valuesOnlyFormPdf } from './form-pdfs.js';

describe('an invoice', () => {
  it('reads the ruled table of line items before the totals set under it', async () => {
    const markdown = mainMarkdown(await convertBytes(invoicePdf()));
    const items = markdown.indexOf('| Description | Qty | Unit Price | Amount |');
    const totals = markdown.indexOf('| Subtotal: | 191.40 |');
    const terms = markdown.indexOf('Payment terms: 30 days net.');
    expect(items).toBeGreaterThan(markdown.indexOf('Due Date: 13 April 2026'));
    expect(totals).toBeGreaterThan(items);
    expect(terms).toBeGreaterThan(totals);
    expect(markdown).toContain('| Delivery | 1 | 15.00 | 15.00 |');
  });
});

describe('an application form', () => {
  it('reads the labels of a row of empty boxes as a table heading those boxes', async () => {
    const markdown = mainMarkdown(await convertBytes(paymentFieldsPdf()));
    expect(markdown).toContain(`| ${FIELD_LABELS.join(' | ')} |\n| --- | --- | --- |\n|  |  |  |`);
    expect(markdown).not.toContain(FIELD_LABELS.join(' '));
  });
});

describe('form fields in a ruled grid', () => {
  it('are the rows of boxes as tall as a line of type, under or over one row of labels', () => {
    expect(emptyFieldRows([600, 620, 648, 650], new Set([0]), 10)).toEqual([1]);
    expect(emptyFieldRows([600, 620, 648], new Set([0, 1]), 10)).toEqual([]);
  });

  it('are named by two labels or more of a few words, not by numbers', () => {
    expect(namesFields(['Card number', 'Expiry date', ''])).toBe(true);
    expect(namesFields(['Surname', ''])).toBe(false);
    expect(namesFields(['0', '25', '50'])).toBe(false);
  });
});

describe('a form filled in', () => {
  it('keeps each label with its value, not a heading, where the value is set bigger than its label', async () => {
    const markdown = mainMarkdown(await convertBytes(await filledFormPdf()));
    for (const [label, value] of FILLED_FIELDS) {
      // A line of its own, or a row of a table of labels and values: either way the label, then its value.
      const row = markdown.split('\n').find((line) => line.includes(label));
      expect(row?.replace(/^\| | \|$/g, '').replace(' | ', ' ')).toBe(`${label} ${value}`);
    }
    expect(markdown).not.toMatch(/#+ [^\n]*(Full name|Email address):/);
    // Headings of one size keep their level, a colon in them or not.
    expect(markdown).toContain('# Application for membership');
    expect(markdown).toMatch(/(^|\n)## Part 1: Applicant\n/);
    expect(markdown).toMatch(/(^|\n)## Part 2: Declaration\n/);
  });
});

describe("a form's check boxes and radio buttons", () => {
  it('read as ☒ or ☐ before their labels, and ◉ or ◯ for the radio buttons, as the form was filled in', async () => {
    const markdown = mainMarkdown(await convertBytes(await choicesFormPdf()));
    for (const [label, ticked] of CHOICES) expect(markdown).toContain(`${ticked ? '☒' : '☐'} ${label}`);
    expect(markdown).toContain('◯ Monthly ◉ Yearly');
  });
});

describe("a filled form's answers", () => {
  const variants = [
    ['left for the viewer to draw (no appearances)', false],
    ["drawn at their boxes' size, a list box's every option, a password in clear", true],
  ] as const;
  for (const [path, convert] of [['LiteParse', convertBytes], ['pdfjs', convertWithPdfjs]] as const) {
    for (const [variant, drawn] of variants) {
      it(`are read beside their labels, none a heading, the comment's lines, a password masked: ${variant} (${path} path)`, async () => {
        const markdown = mainMarkdown(await convert(await valuesOnlyFormPdf(drawn)));
        for (const [label, value] of ANSWERS) {
          const line = markdown.split('\n').find((text) => text.includes(label));
          expect(line?.replace(/^\| | \|$/g, '').replace(' | ', ' ')).toBe(`${label} ${value}`);
        }
        for (const comment of COMMENTS) expect(markdown).toContain(comment);
        expect(markdown.indexOf(COMMENTS[1])).toBeGreaterThan(markdown.indexOf(COMMENTS[0]));
        expect(markdown).toMatch(/Student \|? ?☒/);
        // A password read as a viewer masks it, its length hidden too.
        expect(markdown).toMatch(/Password \|? ?•{8}( \||\n)/);
        expect(markdown).not.toContain(PASSWORD_VALUE);
        expect(markdown).not.toMatch(/^#+ (?!Membership renewal)/m);
      });
    }
  }
});

describe('a filled form made with Acrobat (pdf-lib\'s sample)', () => {
  const form = () => new Uint8Array(readFileSync(new URL('../../fixtures/forms/sample_form.pdf', import.meta.url)));

  it('reads its answers once each, as the form formats them, and none of them as a heading', async () => {
    const markdown = mainMarkdown(await convertBytes(form(), { mode: 'fast' }));
    expect(markdown).toContain('| (123) 456-7890 | (098) 765-4321 | (394) 749-3728 |');
    expect(markdown).toContain('111-11-1111');
    // The values behind the formatted ones are not read a second time.
    expect(markdown).not.toContain('1234567890');
    expect(markdown).not.toContain('111111111');
    expect(markdown).toMatch(/^Q Jr Mr Timbuktu WA 19283$/m);
    expect(markdown).toMatch(/^Qux Baz Arch Rival$/m);
    expect(markdown).toContain('☒ High school diploma');
  });
});

describe('a tagged character sheet filled in (pdf-lib\'s example form)', () => {
  async function filledSheet(): Promise<Uint8Array> {
    const { PDFDocument } = await import('pdf-lib');
    const doc = await PDFDocument.load(readFileSync(new URL('../../fixtures/forms/dod_character.pdf', import.meta.url)));
    const form = doc.getForm();
    const answers: Record<string, string> = { 'CharacterName 2': 'Mario', Age: '24 years', Height: `5' 1"`, Weight: '196 lbs', Eyes: 'blue', Skin: 'white', Hair: 'brown' };
    for (const [name, value] of Object.entries(answers)) form.getTextField(name).setText(value);
    return doc.save();
  }

  it('reads the name filled in at the top of the page as its text, not as a running head', async () => {
    const model = await convertBytes(await filledSheet(), { mode: 'fast' });
    const name = allBlocks(model).find((block) => block.markdown === 'Mario');
    expect(name?.type).toBe('text');
    expect(mainMarkdown(model)).toContain('| 24 years | 5\' 1" | 196 lbs |');
  });
});

describe('a web page\'s form printed by LibreOffice (its inputs made PDF form fields, filled)', () => {
  const form = () => new Uint8Array(readFileSync(new URL('../../fixtures/printed/leave-form.pdf', import.meta.url)));

  for (const [path, convert] of [['LiteParse', convertBytes], ['pdfjs', convertWithPdfjs]] as const) {
    it(`reads each answer after its label, a field's frame no blank to fill in (${path} path)`, async () => {
      const markdown = mainMarkdown(await convert(form(), { mode: 'fast' }));
      expect(markdown.split('\n\n').slice(0, 4)).toEqual([
        'Employee name: Grace Hopper',
        'Department: Research',
        'Start date: 2026-12-14 End date: 2026-12-18',
        'Type of leave: Annual',
      ]);
      // LibreOffice names the ticked box's state `/Yes` (its value too) where its appearances are `/Off` and `/on`:
      // PDFium reads the value, ticked; pdfjs the state, which names no appearance, so unticked.
      expect(markdown.split('\n\n')[4]).toBe(path === 'LiteParse' ? '☒ Paid leave ☐ Half days' : '☐ Paid leave ☐ Half days');
      expect(markdown).toContain('Family visit abroad.');
      expect(markdown).toContain('Back on the 21st.');
      expect(markdown).toContain('Manager approval: ◉ Approved ◯ Declined');
      expect(markdown).not.toContain('\\_');
    });
  }
});

describe('a flat form answered with a typewriter tool (free-text annotations)', () => {
  for (const [path, convert] of [['LiteParse', convertBytes], ['pdfjs', convertWithPdfjs]] as const) {
    it(`reads each typed answer after its label, drawn or not, and a sticky note as a comment, not text (${path} path)`, async () => {
      const markdown = mainMarkdown(await convert(await typedOntoFormPdf()));
      for (const [label, answer] of TYPED) expect(markdown).toMatch(new RegExp(`^${label} ${answer}$`, 'm'));
      expect(markdown.endsWith(`\n\n**Comments:**\n- (Alex): ${NOTE}`)).toBe(true);
      expect(markdown.indexOf(NOTE)).toBe(markdown.lastIndexOf(NOTE));
    });
  }
});

describe("a report's pages with reviewers' comments (a sticky note, a highlight's)", () => {
  for (const [path, convert] of [['LiteParse', convertBytes], ['pdfjs', convertWithPdfjs]] as const) {
    it(`lists them with their authors, where no paragraph reads on over them (${path} path)`, async () => {
      const model = await convert(await reviewedPdf());
      const markdown = mainMarkdown(model);
      const listed = ['**Comments:**', ...REVIEW_NOTES.map(([author, kind, text]) => `- (${author}${kind === 'text' ? '' : `, ${kind}`}): ${text}`)].join('\n');
      // The first page's paragraph goes on over the page break: its comments open the page instead of closing it.
      expect(markdown.startsWith(`${listed}\n\n# Household survey\n\n`)).toBe(true);
      const [first, second] = model.pages;
      expect(first!.blocks[0]).toMatchObject({ type: 'text', label: 'comments', bbox: null });
      expect(first!.blocks.at(-1)?.markdown).toMatch(/checked against$/);
      expect(second!.blocks[0]).toMatchObject({ carriesOn: 'sentence' });
      expect(second!.blocks.some((block) => block.label === 'comments')).toBe(false);
    });
  }
});

describe('a Korean application form printed by LibreOffice (HTML to Word to PDF)', () => {
  const form = () => new Uint8Array(readFileSync(new URL('../../fixtures/printed/korean-form.pdf', import.meta.url)));

  it('keeps the boxes left empty beside their labels as empty cells, each row as the form draws it', async () => {
    const table = allBlocks(await convertBytes(form(), { mode: 'fast' })).find((block) => block.type === 'table');
    const rows = table!.markdown.split('\n').filter((line) => line.startsWith('<tr>'));
    expect(rows.slice(0, 5)).toEqual([
      '<tr><th rowspan="3">신청인</th><th>성 명</th><th></th><th>생년월일</th><th></th></tr>',
      '<tr><th>주 소</th><th colspan="3"></th></tr>',
      '<tr><th>연락처</th><th></th><th>전자우편</th><th></th></tr>',
      '<tr><td rowspan="2">학적</td><td>학 과</td><td></td><td>학 년</td><td></td></tr>',
      '<tr><td>학 번</td><td></td><td>재학 여부</td><td>□ 재학 □ 휴학</td></tr>',
    ]);
    expect(rows[5]).toBe('<tr><td>신청 구분</td><td colspan="4">□ 성적우수 장학금 □ 가계곤란 장학금 □ 근로 장학금</td></tr>');
  });

  it('reads the ruled box of one row under it, a label beside its two lines, as a table of one row', async () => {
    const blocks = allBlocks(await convertBytes(form(), { mode: 'fast' }));
    expect(blocks.at(-1)).toMatchObject({ type: 'table', markdown: '| 첨부 서류 | 1. 성적증명서 1부 2. 가족관계증명서 1부 |\n| --- | --- |' });
    expect(blocks.at(-2)?.markdown).toBe('## 한국대학교 총장 귀하');
  });
});
