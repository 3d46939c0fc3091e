/** Comments and notes on cells: legacy notes, threaded comments with their people, ODS annotations. */
import * as XLSX from '@e965/xlsx';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { DocumentModel } from '../../../src/engine/model.js';
import { convertSpreadsheet } from '../../../src/engine/sheets/convert-sheet.js';
import { convertInput, tableOnPage } from './helpers.js';

function commentedWorkbook(author = 'Zoë', note = 'Nothing typed here yet, café'): XLSX.WorkBook {
  const sheet = XLSX.utils.aoa_to_sheet([['item', 'qty'], ['bolt', 4], ['nut', 10]]);
  (sheet.B2 as XLSX.CellObject).c = [{ a: 'Ann Example', t: 'Ann Example:\nCounted twice & checked' }];
  sheet.D5 = { t: 'z', c: [{ a: author, t: note }] };
  sheet['!ref'] = 'A1:D5';
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, sheet, 'Stock');
  return workbook;
}

function commentsBlock(model: DocumentModel): string {
  return model.pages[0]?.blocks.find((block) => block.label === 'comments')?.markdown ?? '';
}

describe('cell comments', () => {
  // SheetJS writes .xls notes in 8-bit text, so that workbook gets an ASCII author and note.
  it.each([
    ['xlsx', 'xlsx', 'Zoë', 'Nothing typed here yet, café'],
    ['xlsb', 'xlsb', 'Zoë', 'Nothing typed here yet, café'],
    ['biff8', 'xls', 'Zoe', 'Nothing typed here yet, cafe'],
  ] as const)('%s: notes are listed after the table with their cell and author', async (bookType, extension, author, note) => {
    const bytes = XLSX.write(commentedWorkbook(author, note), { type: 'buffer', bookType }) as Buffer;
    const model = await convertSpreadsheet(convertInput(new Uint8Array(bytes), `stock.${extension}`));
    expect(tableOnPage(model, 1)).toEqual([['item', 'qty'], ['bolt', '4'], ['nut', '10']]);
    expect(commentsBlock(model)).toBe(
      `**Comments:**\n- B2 (Ann Example): Counted twice & checked\n- D5 (${author}): ${note}`,
    );
    // The comment block comes after the table: the words of a note are part of the sheet's text.
    const types = model.pages[0]?.blocks.map((block) => block.label ?? block.type);
    expect(types).toEqual(['heading-2', 'table', 'comments']);
  });

  it('threaded comments: author names from the people part, replies under their comment, entities decoded', async () => {
    const files = unzipSync(new Uint8Array(XLSX.write(commentedWorkbook(), { type: 'buffer', bookType: 'xlsx' }) as Buffer));
    const person = (id: string, name: string) =>
      `<person displayName="${name}" id="{${id}}" userId="${name}" providerId="None"/>`;
    files['xl/persons/person.xml'] = strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><personList xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments">' +
        person('P1', 'Chloé R&amp;D') +
        person('P2', 'Dan') +
        '</personList>',
    );
    files['xl/threadedComments/threadedComment1.xml'] = strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><ThreadedComments xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments">' +
        '<threadedComment ref="A3" dT="2024-01-01T00:00:00" personId="{P1}" id="{T1}"><text>Is 10 &lt; 12 in Zürich?</text></threadedComment>' +
        '<threadedComment ref="A3" dT="2024-01-02T00:00:00" personId="{P2}" id="{T2}" parentId="{T1}"><text>Yes &amp; fixed</text></threadedComment>' +
        '</ThreadedComments>',
    );
    const rels = 'xl/worksheets/_rels/sheet1.xml.rels';
    const existing = files[rels] ? strFromU8(files[rels]) : '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>';
    files[rels] = strToU8(
      existing.replace(
        '</Relationships>',
        '<Relationship Id="rIdT" Type="http://schemas.microsoft.com/office/2017/10/relationships/threadedComment" Target="../threadedComments/threadedComment1.xml"/></Relationships>',
      ),
    );
    files['[Content_Types].xml'] = strToU8(
      strFromU8(files['[Content_Types].xml'] as Uint8Array).replace(
        '</Types>',
        '<Override PartName="/xl/persons/person.xml" ContentType="application/vnd.ms-excel.person+xml"/>' +
          '<Override PartName="/xl/threadedComments/threadedComment1.xml" ContentType="application/vnd.ms-excel.threadedcomments+xml"/></Types>',
      ),
    );
    const model = await convertSpreadsheet(convertInput(zipSync(files), 'threads.xlsx'));
    const block = commentsBlock(model);
    expect(block).toContain('- A3 (Chloé R&D): Is 10 \\< 12 in Zürich?\n  - reply (Dan): Yes & fixed');
    expect(block).toContain('- B2 (Ann Example): Counted twice & checked');
  });

  it('ods: annotations with their creator', async () => {
    const content =
      '<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ' +
      'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
      'xmlns:dc="http://purl.org/dc/elements/1.1/" office:version="1.2"><office:body><office:spreadsheet><table:table table:name="Plan">' +
      '<table:table-row><table:table-cell office:value-type="string"><text:p>task</text:p></table:table-cell>' +
      '<table:table-cell office:value-type="string"><text:p>owner</text:p></table:table-cell></table:table-row>' +
      '<table:table-row><table:table-cell office:value-type="string"><office:annotation><dc:creator>Eva Lind</dc:creator>' +
      '<dc:date>2024-03-01T10:00:00</dc:date><text:p>Due in March</text:p></office:annotation><text:p>paint</text:p></table:table-cell>' +
      '<table:table-cell office:value-type="string"><text:p>Ola</text:p></table:table-cell></table:table-row>' +
      '</table:table></office:spreadsheet></office:body></office:document-content>';
    const manifest =
      '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">' +
      '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>' +
      '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>' +
      '<manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/></manifest:manifest>';
    const bytes = zipSync({
      mimetype: [strToU8('application/vnd.oasis.opendocument.spreadsheet'), { level: 0 }],
      'content.xml': strToU8(content),
      'META-INF/manifest.xml': strToU8(manifest),
      'styles.xml': strToU8(
        '<?xml version="1.0" encoding="UTF-8"?><office:document-styles xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" office:version="1.2"/>',
      ),
    });
    const model = await convertSpreadsheet(convertInput(bytes, 'plan.ods'));
    expect(tableOnPage(model, 1)).toEqual([['task', 'owner'], ['paint', 'Ola']]);
    expect(commentsBlock(model)).toBe('**Comments:**\n- A2 (Eva Lind): Due in March');
  });

  it("Excel's legacy stand-in for a threaded comment gives the comment and its replies without the boilerplate", async () => {
    const workbook = commentedWorkbook();
    const sheet = workbook.Sheets.Stock as XLSX.WorkSheet;
    (sheet.A1 as XLSX.CellObject).c = [
      {
        a: 'tc={0A1B}',
        t:
          '[Threaded comment]\n\nYour version of Excel allows you to read this threaded comment; however, any edits to it ' +
          'will get removed if the file is opened in a newer version of Excel. Learn more: https://go.microsoft.com/fwlink/?linkid=870924\n\n' +
          'Comment:\n    Rename this column\nReply:\n    Done',
      },
    ];
    const model = await convertSpreadsheet(
      convertInput(new Uint8Array(XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx' }) as Buffer), 'standin.xlsx'),
    );
    expect(commentsBlock(model)).toMatch(/^\*\*Comments:\*\*\n- A1: Rename this column\n {2}- reply: Done\n- B2 /);
  });
});
