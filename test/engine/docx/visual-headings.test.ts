/**
 * Headings made by hand: a Word document that uses no heading style, its section titles set on lines of their own
 * in bold or in a larger type, or given an outline level directly, keeps its outline in the Markdown.
 */
import { describe, expect, it } from 'vitest';
import { convertDocx } from '../../../src/engine/docx/convert-docx.js';
import { input, markdownOf } from '../html/helpers.js';
import { makeDocx } from './make-docx.js';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const run = (text: string, properties = '') => `<w:r><w:rPr>${properties}</w:rPr><w:t xml:space="preserve">${text}</w:t></w:r>`;
const para = (runs: string, properties = '') => `<w:p>${properties === '' ? '' : `<w:pPr>${properties}</w:pPr>`}${runs}</w:p>`;
const BOLD = '<w:b/>';
const size = (halfPoints: number) => `<w:sz w:val="${halfPoints}"/>`;

const STYLES =
  `<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="${W}">` +
  '<w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="22"/></w:rPr></w:rPrDefault></w:docDefaults>' +
  '<w:style w:type="paragraph" w:styleId="Normal"><w:name w:val="Normal"/></w:style>' +
  '<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:rPr><w:sz w:val="56"/></w:rPr></w:style>' +
  '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style>' +
  '</w:styles>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  `<Relationship Id="rId1" Type="${R}/styles" Target="styles.xml"/></Relationships>`;

const convert = async (body: string) => markdownOf(await convertDocx(input(makeDocx({ body, documentRels: RELS, extra: { 'word/styles.xml': STYLES } }), {}, 'report.docx')));

const SENTENCES = 'Sales rose by ten percent over the period, led by the northern region.';

describe('headings made by hand', () => {
  it('reads short lines set in bold or a larger type as headings, their levels by type, the body as paragraphs', async () => {
    const body =
      para(run('Quarterly Report', BOLD + size(40))) +
      para(run('Introduction', BOLD + size(28))) +
      para(run(`This report covers the third quarter. ${SENTENCES}`)) +
      para(run('Results', BOLD + size(28))) +
      para(run('Regional detail', BOLD)) +
      para(run(SENTENCES)) +
      para(run('Note:', BOLD) + run(' the figures are provisional until the audit.')) +
      para(run('Totals are rounded to the nearest thousand.', BOLD)) +
      para(run(SENTENCES));
    expect(await convert(body)).toBe(
      [
        '# Quarterly Report',
        '## Introduction',
        `This report covers the third quarter. ${SENTENCES}`,
        '## Results',
        '### Regional detail',
        SENTENCES,
        '**Note:** the figures are provisional until the audit.',
        '**Totals are rounded to the nearest thousand.**',
        SENTENCES,
      ].join('\n\n'),
    );
  });

  it("leaves a form's bold labels over their short values as paragraphs", async () => {
    const body = ['Name', 'Jane Doe', 'Address', '1 High Street', 'Phone', '555 0100'].map((text, index) => para(run(text, index % 2 === 0 ? BOLD : ''))).join('') + para(run(SENTENCES));
    expect(await convert(body)).toBe(`**Name**\n\nJane Doe\n\n**Address**\n\n1 High Street\n\n**Phone**\n\n555 0100\n\n${SENTENCES}`);
  });

  it('trusts a document that uses heading styles: its bold lines stay bold paragraphs, its headings lose the bold markers', async () => {
    const body = para(run('Overview', BOLD), '<w:pStyle w:val="Heading1"/>') + para(run(SENTENCES)) + para(run('Key points', BOLD)) + para(run(SENTENCES));
    expect(await convert(body)).toBe(`# Overview\n\n${SENTENCES}\n\n**Key points**\n\n${SENTENCES}`);
  });

  it('puts sections made by hand under a title styled as one (Word\'s Title from the style gallery)', async () => {
    const body = para(run('Annual Report'), '<w:pStyle w:val="Title"/>') + para(run('Overview', BOLD)) + para(run(SENTENCES)) + para(run('Outlook', BOLD)) + para(run(SENTENCES));
    expect(await convert(body)).toBe(`# Annual Report\n\n## Overview\n\n${SENTENCES}\n\n## Outlook\n\n${SENTENCES}`);
  });

  it('reads a paragraph given an outline level of its own as a heading of that level', async () => {
    const body = para(run('Chapter One'), '<w:outlineLvl w:val="0"/>') + para(run(SENTENCES)) + para(run('The Voyage'), '<w:outlineLvl w:val="1"/>') + para(run(SENTENCES));
    expect(await convert(body)).toBe(`# Chapter One\n\n${SENTENCES}\n\n## The Voyage\n\n${SENTENCES}`);
  });
});
