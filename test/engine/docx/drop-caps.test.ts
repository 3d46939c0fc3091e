/** Drop caps: the large first letter Word sets in a paragraph of its own joins the rest of its word again. */
import { describe, expect, it } from 'vitest';
import { convertDocx } from '../../../src/engine/docx/convert-docx.js';
import { input, markdownOf } from '../html/helpers.js';
import { makeDocx, paragraph } from './make-docx.js';

const run = (text: string) => `<w:r><w:rPr><w:sz w:val="120"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r>`;
/** A drop cap paragraph as Word writes it: framed, the letter in a large run. */
const dropCap = (letter: string, kind = 'drop') =>
  `<w:p><w:pPr><w:keepNext/><w:framePr w:dropCap="${kind}" w:lines="3" w:wrap="around" w:vAnchor="text" w:hAnchor="text"/>` +
  `<w:spacing w:after="0" w:line="1000" w:lineRule="exact"/><w:textAlignment w:val="baseline"/></w:pPr>${run(letter)}</w:p>`;

const markdownFor = async (body: string) => markdownOf(await convertDocx(input(makeDocx({ body }), {}, 'chapter.docx')));

describe('drop caps', () => {
  it('join the paragraph they drop into, in the margin too, instead of standing as a paragraph of one letter', async () => {
    const body =
      paragraph('Chapter One', 'Heading1') +
      dropCap('T') +
      '<w:p><w:pPr><w:jc w:val="both"/></w:pPr><w:r><w:t xml:space="preserve">he story begins on a cold morning.</w:t></w:r></w:p>' +
      paragraph('Second paragraph.') +
      dropCap('I', 'margin') +
      paragraph('t was late.');
    expect(await markdownFor(body)).toBe('# Chapter One\n\nThe story begins on a cold morning.\n\nSecond paragraph.\n\nIt was late.');
  });

  it('a framed paragraph that is no drop cap stays a paragraph of its own', async () => {
    const framed = '<w:p><w:pPr><w:framePr w:w="2000" w:hSpace="180" w:wrap="around" w:vAnchor="text" w:hAnchor="page" w:x="800"/></w:pPr><w:r><w:t>Sidebar.</w:t></w:r></w:p>';
    expect(await markdownFor(framed + paragraph('Body text.'))).toBe('Sidebar.\n\nBody text.');
  });
});
