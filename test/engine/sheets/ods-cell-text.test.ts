/** OpenDocument spreadsheets: cells show the text LibreOffice wrote in them, whole numbers included; styles.xml is optional. */
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { convertSpreadsheet } from '../../../src/engine/sheets/convert-sheet.js';
import { convertInput, tableOnPage } from './helpers.js';

const NAMESPACES =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" ' +
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';

/** A one-sheet .ods whose rows are table:table-cell XML; `styles: false` leaves the (optional) styles part out. */
function ods(rows: string[][], { styles = true } = {}): Uint8Array {
  const content =
    `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NAMESPACES} office:version="1.3"><office:body><office:spreadsheet>` +
    `<table:table table:name="Budget">${rows.map((cells) => `<table:table-row>${cells.join('')}</table:table-row>`).join('')}</table:table>` +
    '</office:spreadsheet></office:body></office:document-content>';
  return zipSync({
    mimetype: [strToU8('application/vnd.oasis.opendocument.spreadsheet'), { level: 0 }],
    'content.xml': strToU8(content),
    ...(styles ? { 'styles.xml': strToU8(`<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${NAMESPACES} office:version="1.3"/>`) } : {}),
    'META-INF/manifest.xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">' +
        '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>' +
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
    ),
  });
}

const text = (value: string) => `<table:table-cell office:value-type="string"><text:p>${value}</text:p></table:table-cell>`;
const number = (type: string, value: string, shown?: string, formula = '') =>
  `<table:table-cell office:value-type="${type}" office:value="${value}"${type === 'currency' ? ' office:currency="USD"' : ''}${formula}>` +
  `${shown === undefined ? '' : `<text:p>${shown}</text:p>`}</table:table-cell>`;

describe('ods cell text', () => {
  it('whole numbers keep the format LibreOffice shows them in: currency, percent, thousands, a formula result', async () => {
    const bytes = ods([
      [text('Item'), text('Amount')],
      [text('Rent'), number('currency', '1200', '$1,200.00')],
      [text('Share'), number('percentage', '1', '100%')],
      [text('Visitors'), number('float', '25000', '25,000')],
      [text('Total'), number('float', '26200', '26,200.00', ' table:formula="of:=[.B2]+[.B4]"')],
      [text('Account'), number('float', '123456789012', '123456789012')],
      [text('Order ID'), number('float', '987654321098')],
    ]);
    const model = await convertSpreadsheet(convertInput(bytes, 'budget.ods'));
    expect(tableOnPage(model, 1).slice(1)).toEqual([
      ['Rent', '$1,200.00'],
      ['Share', '100%'],
      ['Visitors', '25,000'],
      ['Total', '26,200.00'],
      ['Account', '123456789012'],
      // No text written: the number in full, not in SheetJS's General (`9.87654E+11`).
      ['Order ID', '987654321098'],
    ]);
  });

  it('a package with content.xml and no styles part is read, not refused as damaged', async () => {
    const bytes = ods([[text('Item'), text('Amount')], [text('Rent'), number('currency', '1200', '$1,200.00')]], { styles: false });
    const model = await convertSpreadsheet(convertInput(bytes, 'export.ods'));
    expect(tableOnPage(model, 1)).toEqual([['Item', 'Amount'], ['Rent', '$1,200.00']]);
  });
});
