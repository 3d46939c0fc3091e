/**
 * The DOCX converter on the test corpus (docx/, docm/, and doc/eng_spa_mult.doc, a .docx named .doc) and on
 * packages built here: header rows, errors (encrypted, not a zip, another Office package, zip bombs).
 */
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { convertDocx } from '../../../src/engine/docx/convert-docx.js';
import { NO_TEXT_WARNING } from '../../../src/engine/html/convert-html.js';
import { sniff } from '../../../src/engine/bytes/sniff.js';
import { blocksOf, corpusBytes, corpusText, headingsOf, input, markdownOf, tablesOf } from '../html/helpers.js';
import { coreXml, listStylesDocx, makeDocx, paragraph, table, textBoxRun, type TextBoxForm } from './make-docx.js';
import { cutInside } from '../../helpers/cut-zip.js';

const convert = (file: string, overrides = {}) => convertDocx(input(file, overrides));

describe('docx/word_tables.docx', () => {
  it('gives GFM tables with the first row as header, spans flattened like the ground truth', async () => {
    const model = await convert('docx/word_tables.docx');
    const tables = tablesOf(model);
    expect(tables).toHaveLength(7);
    expect(tables[0]).toEqual([
      ['Header 0.0', 'Header 0.1', 'Header 0.2'],
      ['Cell 1.0', 'Cell 1.1', 'Cell 1.2'],
      ['Cell 2.0', 'Cell 2.1', 'Cell 2.2'],
    ]);
    // Horizontal and vertical merges repeat the merged text in every covered cell, as docling does.
    expect(tables[1]?.[1]).toEqual(['Cell 1.0', 'Merged Cell 1.1 1.2', 'Merged Cell 1.1 1.2']);
    expect(tables[3]?.map((row) => row[1])).toEqual(['Header 0.1', 'Merged Cell 1.1 2.1', 'Merged Cell 1.1 2.1', 'Merged Cell 3.1 4.1', 'Merged Cell 3.1 4.1']);
    // Rows that start late (w:gridBefore) keep their cells under the right columns.
    expect(tables[5]).toEqual([
      ['Header 0.0', 'Header 0.1'],
      ['', 'Cell 1.1'],
    ]);
    expect(tables[6]).toEqual([
      ['Header 0.0', 'Header 0.1', 'Merged Cell 0.2 1.2'],
      ['', '', 'Merged Cell 0.2 1.2'],
    ]);
    const expected = corpusText('docx/word_tables.expected.md');
    const markdown = markdownOf(model);
    for (const line of expected.split('\n').filter((text) => /^\| (Header|Cell)/.test(text) && !/\| {2}\|/.test(text))) {
      expect(markdown).toContain(line.replace(/\| - /g, '| --- '));
    }
    expect(headingsOf(markdown)).toEqual(headingsOf(expected));
    expect(blocksOf(model).every((block) => block.source === 'docx')).toBe(true);
    expect(model.metadata).toMatchObject({ author: 'Cesar Berrospi Ramis' });
  });
});

describe('header rows (w:tblHeader)', () => {
  it('become the GFM header; several header rows are merged', async () => {
    const bytes = makeDocx({
      body:
        table(
          [
            ['Quarter', 'Revenue'],
            ['Q1', '10'],
            ['Q2', '12'],
          ],
          1,
        ) +
        paragraph('Table 1: Revenue by quarter', 'Caption') +
        paragraph('Between') +
        table(
          [
            ['Region', 'Sales'],
            ['', '2024'],
            ['North', '5'],
          ],
          2,
        ),
    });
    const model = await convertDocx(input(bytes, {}, 'header-rows.docx'));
    expect(blocksOf(model)[1]).toMatchObject({ type: 'caption', markdown: 'Table 1: Revenue by quarter' });
    expect(model.html).toContain('<thead>');
    expect(model.html).toContain('<th>');
    expect(tablesOf(model)).toEqual([
      [
        ['Quarter', 'Revenue'],
        ['Q1', '10'],
        ['Q2', '12'],
      ],
      [
        ['Region', 'Sales 2024'],
        ['North', '5'],
      ],
    ]);
  });
});

describe('a table with a table in a cell', () => {
  it('stays a table, the nested one flattened into its cell; a one-cell box is still read as its content', async () => {
    const nested = table([
      ['A', 'B'],
      ['1', '2'],
    ]);
    const outer =
      '<w:tbl><w:tblPr/><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid>' +
      `<w:tr><w:tc>${paragraph('Field')}</w:tc><w:tc>${paragraph('Value')}</w:tc></w:tr>` +
      `<w:tr><w:tc>${paragraph('Totals')}</w:tc><w:tc>${nested}${paragraph('')}</w:tc></w:tr></w:tbl>`;
    const box = table([['A framed note.']]);
    const model = await convertDocx(input(makeDocx({ body: outer + box }), {}, 'nested-table.docx'));
    expect(tablesOf(model)).toEqual([
      [
        ['Field', 'Value'],
        ['Totals', 'A \\| B<br>1 \\| 2'],
      ],
    ]);
    expect(blocksOf(model).map((block) => block.type)).toEqual(['table', 'text']);
    expect(markdownOf(model)).toContain('A framed note.');
  });
});

describe("Word's list styles 2 to 5 (List Bullet 2, List Number 2, …)", () => {
  it('nest their items under the items above them, as deep as the style says', async () => {
    const bytes = listStylesDocx([
      ['Normal', 'Steps to follow.'],
      ['ListBullet', 'Level one'],
      ['ListBullet2', 'Level two under it'],
      ['ListBullet3', 'Level three under that'],
      ['ListBullet', 'Level one again'],
      ['ListNumber', 'Number one'],
      ['ListNumber2', 'Number one-a'],
      ['ListNumber2', 'Number one-b'],
      ['ListNumber', 'Number two'],
    ]);
    const markdown = markdownOf(await convertDocx(input(bytes, {}, 'lists.docx')));
    expect(markdown).toContain(
      ['- Level one', '  - Level two under it', '    - Level three under that', '- Level one again'].join('\n'),
    );
    expect(markdown).toContain(['1. Number one', '   1. Number one-a', '   2. Number one-b', '2. Number two'].join('\n'));
  });

  it('start a list where no item stands above them, at the first level rather than under an empty item', async () => {
    const bytes = listStylesDocx([
      ['Normal', 'A paragraph, then a list set in.'],
      ['ListBullet2', 'First item'],
      ['ListBullet3', 'Its sub-item'],
      ['ListBullet2', 'Second item'],
    ]);
    const markdown = markdownOf(await convertDocx(input(bytes, {}, 'lists.docx')));
    expect(markdown).toContain(['- First item', '  - Its sub-item', '- Second item'].join('\n'));
    expect(markdown).not.toMatch(/^- -/m);
  });
});

describe('text boxes', () => {
  const forms: TextBoxForm[] = ['drawing', 'no-fallback', 'empty-fallback', 'with-vml'];
  it.each(forms)('keep their text after the paragraph they are anchored in, written as %s', async (form) => {
    const body =
      paragraph('Quarterly summary') +
      `<w:p><w:r><w:t xml:space="preserve">Sales rose in every region. </w:t></w:r>${textBoxRun(['Key figure: 42 %', 'Up from 35 %'], form)}</w:p>` +
      paragraph('The next paragraph.');
    const markdown = markdownOf(await convertDocx(input(makeDocx({ body }), {}, 'boxes.docx')));
    const order = ['Quarterly summary', 'Sales rose in every region.', 'Key figure: 42 %', 'Up from 35 %', 'The next paragraph.'].map((text) => markdown.indexOf(text));
    expect(order.every((at) => at >= 0), markdown).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // Once, even where Word wrote both the drawing and its VML copy.
    expect(markdown.split('Key figure').length - 1).toBe(1);
  });
});

describe('docx/docx_page_header_footer_first_page.docx', () => {
  it('adds headers and footers as furniture blocks around the body', async () => {
    const model = await convert('docx/docx_page_header_footer_first_page.docx');
    const blocks = blocksOf(model);
    expect(blocks.filter((block) => block.type === 'page_header').map((block) => block.markdown)).toEqual([
      'FIRST PAGE HEADER (page 1 only)',
      'REGULAR HEADER (page 2 onward)',
    ]);
    expect(blocks.filter((block) => block.type === 'page_footer').map((block) => block.markdown)).toEqual([
      'FIRST PAGE FOOTER (page 1 only)',
      'REGULAR FOOTER (page 2 onward)',
    ]);
    expect(blocks[0]?.type).toBe('page_header');
    expect(blocks[blocks.length - 1]?.type).toBe('page_footer');
    expect(blocks.filter((block) => block.furniture).length).toBe(4);
    // Without furniture (onlyMainContent, the default), the Markdown is the body, like the ground truth.
    const markdown = markdownOf(model);
    expect(markdown).not.toContain('HEADER');
    expect(markdown).toContain('# Page header/footer regression fixture');
    // An underscore inside a word needs no escape.
    expect(markdown).toContain('This document has different_first_page_header_footer enabled.');
    expect(markdown).toContain('## Page 2\n\nThis is body text on page 2.');
    expect(markdownOf(model, { furniture: true })).toMatch(/^FIRST PAGE HEADER[\s\S]*REGULAR FOOTER \(page 2 onward\)$/);
    expect(model.metadata).toMatchObject({ author: 'python-docx', description: 'generated by python-docx' });
  });
});

describe('headers and footers built here', () => {
  it('types a footer that is only a page number as page_number; identical headers appear once', async () => {
    const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
    const bytes = makeDocx({
      body:
        paragraph('Body *text*') +
        '<w:p><w:pPr><w:sectPr><w:headerReference w:type="default" r:id="rH1"/><w:footerReference w:type="default" r:id="rF1"/></w:sectPr></w:pPr></w:p>' +
        paragraph('More') +
        '<w:sectPr><w:headerReference w:type="default" r:id="rH2"/></w:sectPr>',
      documentRels:
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rH1" Type="${R}/header" Target="header1.xml"/><Relationship Id="rH2" Type="${R}/header" Target="header2.xml"/>` +
        `<Relationship Id="rF1" Type="${R}/footer" Target="footer1.xml"/></Relationships>`,
      extra: {
        'word/header1.xml': `<w:hdr ${W}><w:p><w:r><w:t>ACME</w:t></w:r><w:r><w:tab/><w:t>*Confidential*</w:t></w:r></w:p></w:hdr>`,
        'word/header2.xml': `<w:hdr ${W}><w:p><w:r><w:t>ACME</w:t></w:r><w:r><w:tab/><w:t>*Confidential*</w:t></w:r></w:p></w:hdr>`,
        'word/footer1.xml': `<w:ftr ${W}><w:p><w:r><w:t xml:space="preserve">Page </w:t></w:r><w:fldSimple w:instr=" PAGE "><w:r><w:t>1</w:t></w:r></w:fldSimple></w:p></w:ftr>`,
      },
    });
    const model = await convertDocx(input(bytes, { onlyMainContent: false }, 'hf.docx'));
    expect(blocksOf(model).map((block) => [block.type, block.markdown, block.furniture ?? false])).toEqual([
      ['page_header', 'ACME \\*Confidential\\*', true],
      ['text', 'Body \\*text\\*', false],
      ['text', 'More', false],
      ['page_number', 'Page 1', true],
    ]);
  });
});

describe('docx/equations.docx', () => {
  // mammoth alone drops every OMML equation; docmill converts them to LaTeX before mammoth reads the document.
  it('writes inline equations as $...$ and display equations as $$...$$ formula blocks', async () => {
    const model = await convert('docx/equations.docx');
    const markdown = markdownOf(model);
    expect(markdown).toContain('This is a word document and this is an inline equation: $A=\\pi r^{2}$.');
    expect(markdown).toContain('- Second item with equations: $E=mc^{2}$ and $F=ma$ are physics formulas.');
    const formulas = blocksOf(model).filter((block) => block.type === 'formula');
    expect(formulas.length).toBe(19);
    expect(formulas[0]?.markdown).toBe('$$a^{2}+b^{2}=c^{2} \\times 23$$');
    expect(formulas.map((block) => block.markdown)).toContain('$$\\prod_{k=1}^{n}A_{k}$$');
    expect(markdown).toContain('\\frac{x^{2}}{2!}');
    expect(markdown).toContain('\\sum_{n=1}^{\\infty}');
    expect(markdown).toContain('\\underbrace{S\\cdot T\\cdot G\\cdot(x+y+z)}');
    // The prose around the equations is all there.
    for (const line of corpusText('docx/equations.expected.md').split('\n').filter((text) => /^(This is|And that|Large|Operators|Equations with)/.test(text))) {
      expect(markdown).toContain(line.replace(/ \$.*$/, '').replace(/\s+$/, '').slice(0, 40));
    }
  });
});

describe('docx/footnotes.docx', () => {
  it('keeps footnotes at the end as GFM footnotes', async () => {
    const model = await convert('docx/footnotes.docx');
    expect(markdownOf(model)).toBe('Ouch[^1].[^2]\n\n[^1]: A tachyon walks into a bar.\n\n[^2]: Fin.');
    expect(blocksOf(model).filter((block) => block.label === 'footnote')).toHaveLength(2);
    expect(model.links).toEqual([]);
  });
});

describe('docx/strict-format.docx (ISO 29500 Strict namespaces)', () => {
  it('is read (mammoth knows the Strict namespaces; no rewriting needed)', async () => {
    const model = await convert('docx/strict-format.docx');
    expect(markdownOf(model)).toBe('Test');
    expect(model.metadata['author']).toBe('Tom Chantry');
  });
});

describe('docx/empty.docx', () => {
  it('gives a model with no blocks and a warning, not an error', async () => {
    const model = await convert('docx/empty.docx');
    expect(blocksOf(model)).toEqual([]);
    expect(model.warnings).toEqual([NO_TEXT_WARNING]);
    expect(model.pages).toHaveLength(1);
  });
});

describe('docm (macro-enabled)', () => {
  it('SimpleMacro.docm: the text, macros ignored', async () => {
    expect(markdownOf(await convert('docm/SimpleMacro.docm'))).toBe('This is a macro word processing document');
  });

  it('45690.docm: Cyrillic text, hyperlinks repaired, table, images as placeholders', async () => {
    const model = await convert('docm/45690.docm');
    const markdown = markdownOf(model);
    expect(markdown).toContain('**Стрелец A\\*** (Sagittarius A\\*) — мощный и компактный радиоисточник');
    expect(markdown).toContain('](<Base64-Image-Removed>)');
    expect(model.links?.some((link) => link.includes('"') || link.includes('\\o'))).toBe(false);
    expect(model.links).toContain('http://ru.wikipedia.org/w/index.php?title=%D0%A1%D1%82%D1%80%D0%B5%D0%BB%D0%B5%D1%86_A*&action=edit&section=0');
    expect(tablesOf(model)[0]?.[0]?.[0]).toBe('**Расстояние:**');
    expect(model.images).toEqual([]);
  });

  it('45690.docm with removeBase64Images:false keeps the images as data URIs', async () => {
    const model = await convert('docm/45690.docm', { removeBase64Images: false });
    expect(markdownOf(model)).toContain('](data:image/jpeg;base64,');
  });
});

describe('doc/eng_spa_mult.doc (a .docx saved with a .doc name)', () => {
  it('is sniffed as a Word package and converted', async () => {
    const bytes = corpusBytes('doc/eng_spa_mult.doc');
    const sniffed = sniff(bytes);
    expect(sniffed.real).toEqual({ kind: 'document', type: 'docx' });
    expect(sniffed.zip?.has('word/document.xml')).toBe(true);
    const model = await convertDocx(input(bytes, {}, 'eng_spa_mult.doc'));
    const markdown = markdownOf(model);
    expect(markdown).toContain('All human beings are born free and equal in dignity and rights.');
    expect(markdown).toContain('Todos los seres humanos nacen libres e iguales en dignidad y derechos');
  });
});

describe('metadata', () => {
  it('reads title, author, subject, description, keywords, dates from docProps/core.xml', async () => {
    const bytes = makeDocx({
      body: paragraph('Report', 'Title') + paragraph('Body'),
      core: coreXml({
        'dc:title': 'Quarterly report',
        'dc:creator': 'Ada',
        'dc:subject': 'Finance',
        'dc:description': 'Numbers',
        'cp:keywords': 'q1, revenue',
        'dc:language': 'en-GB',
        'dcterms:created': '2024-01-02T03:04:05Z',
      }),
    });
    const model = await convertDocx(input(bytes, {}, 'r.docx'));
    expect(model.metadata).toEqual({
      title: 'Quarterly report',
      author: 'Ada',
      subject: 'Finance',
      description: 'Numbers',
      keywords: 'q1, revenue',
      language: 'en-GB',
      created: '2024-01-02T03:04:05Z',
    });
    // The Title style is the document title.
    expect(blocksOf(model)[0]).toMatchObject({ type: 'title', markdown: '# Report' });
    expect(model.rawHtml).toBe('<h1>Report</h1><p>Body</p>');
  });
});

describe('errors', () => {
  it('an encrypted Office file (OLE with EncryptionInfo) is ENCRYPTED_DOCUMENT', async () => {
    // The corpus's password-protected workbook is the same container Word uses for an encrypted .docx.
    const bytes = corpusBytes('xlsx/password_protected.xlsx');
    await expect(convertDocx(input(bytes, {}, 'secret.docx'))).rejects.toMatchObject({ apiCode: 'ENCRYPTED_DOCUMENT', status: 400 });
  });

  it('a legacy binary .doc is UNSUPPORTED_FILE', async () => {
    const bytes = corpusBytes('doc/legacy_sample.doc');
    await expect(convertDocx(input(bytes, {}, 'legacy.docx'))).rejects.toMatchObject({ apiCode: 'UNSUPPORTED_FILE' });
  });

  it('bytes that are no document are CORRUPT_DOCUMENT; text is UNSUPPORTED_FILE naming what it is', async () => {
    const junk = new Uint8Array([0, 1, 2, 3, 0, 0, 255, 7, 9, 9]);
    await expect(convertDocx(input(junk, {}, 'fake.docx'))).rejects.toMatchObject({ apiCode: 'CORRUPT_DOCUMENT' });
    const bytes = new TextEncoder().encode('this is plain text, not a zip package');
    await expect(convertDocx(input(bytes, {}, 'fake.docx'))).rejects.toMatchObject({
      apiCode: 'UNSUPPORTED_FILE',
      message: 'the file is a text file (CSV or plain text), not a Word document (.docx)',
    });
  });

  it('a package cut short inside its document part is CORRUPT_DOCUMENT', async () => {
    // Cut after it, the package is read from its repaired directory (test/engine/bytes/zip-repair.test.ts).
    const whole = corpusBytes('docx/word_tables.docx');
    await expect(convertDocx(input(cutInside(whole, 'word/document.xml'), {}, 'cut.docx'))).rejects.toMatchObject({
      apiCode: 'CORRUPT_DOCUMENT',
    });
  });

  it('a zip without word/document.xml is CORRUPT_DOCUMENT; another Office package is UNSUPPORTED_FILE', async () => {
    const zip = zipSync({ 'readme.txt': strToU8('hello') });
    await expect(convertDocx(input(zip, {}, 'x.docx'))).rejects.toMatchObject({ apiCode: 'CORRUPT_DOCUMENT' });
    await expect(convertDocx(input('xlsx/xlsx_01.xlsx', {}, 'book.docx'))).rejects.toMatchObject({ apiCode: 'UNSUPPORTED_FILE' });
  });

  it('a package declaring more than 256 MiB of content is DOCUMENT_TOO_COMPLEX (zip bomb)', async () => {
    // What a bomb's central directory says (300 MiB of zeros deflate to ~300 KB): patch the declared size.
    const bomb = makeDocx({ body: paragraph('tiny') });
    const view = new DataView(bomb.buffer, bomb.byteOffset, bomb.byteLength);
    for (let at = 0; at + 46 <= bomb.length; at += 1) {
      if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, 300 * 1024 * 1024, true);
    }
    await expect(convertDocx(input(bomb, {}, 'bomb.docx'))).rejects.toMatchObject({ apiCode: 'DOCUMENT_TOO_COMPLEX' });
  });
});

describe('raised and lowered text', () => {
  it('digits set superscript or subscript read as Unicode superscripts and subscripts; a raised word or a note mark stays as written', async () => {
    const run = (text: string, position?: 'superscript' | 'subscript') =>
      `<w:r>${position ? `<w:rPr><w:vertAlign w:val="${position}"/></w:rPr>` : ''}<w:t xml:space="preserve">${text}</w:t></w:r>`;
    const body =
      `<w:p>${run('A brightness of about 1×10')}${run('7', 'superscript')}${run(' K; water is H')}${run('2', 'subscript')}${run('O; the 1')}${run('st', 'superscript')}` +
      `${run(' entry; an area of 20 m')}${run('2', 'superscript')}${run('.')}</w:p>`;
    expect(markdownOf(await convertDocx(input(makeDocx({ body }), {}, 'raised.docx')))).toBe(
      'A brightness of about 1×10⁷ K; water is H₂O; the 1st entry; an area of 20 m².',
    );
  });
});
