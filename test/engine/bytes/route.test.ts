/**
 * Routing by the real type: files whose extension lies are converted as what they are, with a warning naming both;
 * files that are no document, or whose container alone shows them encrypted, empty or damaged, are refused before
 * any converter runs, with the code and the cause.
 */
import * as XLSX from '@e965/xlsx';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../src/engine/engine-error.js';
import { parseDocument } from '../../../src/engine/engine.js';
import { converterNamedBy, type Route, routeDocument } from '../../../src/engine/route.js';
import { corpusBytes, options } from '../html/helpers.js';
import { oleFile } from './make-bytes.js';
import { cutInside } from '../../helpers/cut-zip.js';

const text = (value: string) => new TextEncoder().encode(value);

function parse(bytes: Uint8Array, fileName: string) {
  return parseDocument({ bytes, fileName, options: options() });
}

/** The route without the sniff result it carries: converter, extension, real type, and the warning when there is one. */
function routed(fileName: string, bytes: Uint8Array): Omit<Route, 'sniffed' | 'contentType' | 'bytes'> {
  const { sniffed: _sniffed, contentType: _contentType, bytes: converted, ...route } = routeDocument(fileName, bytes);
  // The bytes converted are the file's own, but for a package cut short (tested below).
  expect(converted).toBe(bytes);
  return route;
}

function refusal(fileName: string, bytes: Uint8Array): EngineError {
  try {
    routeDocument(fileName, bytes);
  } catch (error) {
    if (error instanceof EngineError) return error;
    throw error;
  }
  throw new Error(`${fileName} was routed, not refused`);
}

const HTML_TABLE = '<!DOCTYPE html><html><head><title>Export</title></head><body><h1>Orders</h1><table><tr><th>Item</th><th>Qty</th></tr><tr><td>Bolt</td><td>4</td></tr></table></body></html>';

const FLAT_ODT =
  '<?xml version="1.0"?><office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:mimetype="application/vnd.oasis.opendocument.text"><office:body><office:text><text:p>Hi</text:p></office:text></office:body></office:document>';

describe('a lying extension converts by the real type, with a warning naming both', () => {
  it('a .doc that is a .docx', async () => {
    const data = await parse(corpusBytes('doc/eng_spa_mult.doc'), 'report.doc');
    expect(data.warning).toBe('report.doc is a Word document (.docx); converted as DOCX.');
    expect(data.markdown).toContain('All human beings are born free and equal in dignity and rights.');
    expect(data.metadata?.contentType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  });

  it('an .odt that is a .docx', async () => {
    const data = await parse(corpusBytes('docx/word_tables.docx'), 'minutes.odt');
    expect(data.warning).toBe('minutes.odt is a Word document (.docx); converted as DOCX.');
    expect(data.markdown).toContain('| Header 0.0 | Header 0.1 | Header 0.2 |');
  });

  it('a .doc that is HTML', async () => {
    const data = await parse(text(HTML_TABLE), 'export.doc');
    expect(data.warning).toBe('export.doc is an HTML page; converted as HTML.');
    expect(data.markdown).toContain('# Orders');
    expect(data.markdown).toContain('| Bolt | 4 |');
    expect(data.metadata?.contentType).toBe('text/html');
  });

  it('an .xls that is an HTML table, as web apps export', async () => {
    const data = await parse(text(HTML_TABLE), 'orders.xls');
    expect(data.warning).toBe('orders.xls is an HTML page; converted as HTML.');
    expect(data.markdown).toContain('| Item | Qty |');
  });

  it('an .xls that is CSV', async () => {
    const data = await parse(text('item,qty\nbolt,4\nnut,12\n'), 'orders.xls');
    expect(data.warning).toBe('orders.xls is a text file (CSV or plain text); converted as CSV.');
    expect(data.markdown).toBe('| item | qty |\n| --- | --- |\n| bolt | 4 |\n| nut | 12 |');
    expect(data.metadata?.contentType).toBe('text/csv');
  });

  it('a .pdf that is HTML', async () => {
    const data = await parse(text(HTML_TABLE), 'invoice.pdf');
    expect(data.warning).toBe('invoice.pdf is an HTML page; converted as HTML.');
    expect(data.markdown).toContain('| Bolt | 4 |');
  });

  it('a .docx that is a PDF', async () => {
    const data = await parse(corpusBytes('pdf/2305.03393v1-pg9.pdf'), 'paper.docx');
    expect(data.warning).toMatch(/^paper\.docx is a PDF document; converted as PDF\./);
    expect(data.markdown).toContain('Hyper Parameter Optimization');
    expect(data.metadata?.contentType).toBe('application/pdf');
  });

  it('a .csv that is an .xlsx workbook', async () => {
    const data = await parse(corpusBytes('xlsx/xlsx_01.xlsx'), 'figures.csv');
    expect(data.warning).toBe('figures.csv is an Excel workbook (.xlsx); converted as XLSX.');
    expect(data.markdown).toContain('| first | second | third |');
  });

  it('an .xlsx that is an Excel 97-2003 workbook', async () => {
    const data = await parse(corpusBytes('xls/tests-example.xls'), 'old.xlsx');
    expect(data.warning).toBe('old.xlsx is an Excel 97-2003 workbook (.xls); converted as an Excel 97-2003 workbook.');
    expect(data.markdown).toMatch(/^## /);
  });

  it.each<[string, string, Uint8Array, Partial<Route>]>([
    ['a .docm that is an OLE2 Word 97 file', 'macro.docm', corpusBytes('doc/legacy_sample.doc'), { converter: 'doc', extension: '.doc', warning: 'macro.docm is a Word 97-2003 document (.doc); converted as a Word 97-2003 document.' }],
    ['a .doc that is RTF', 'report.doc', corpusBytes('rtf/fake-doc.rtf'), { converter: 'rtf', extension: '.rtf', warning: 'report.doc is an RTF document; converted as RTF.' }],
    ['a .ppt that is a .pptx', 'deck.ppt', corpusBytes('ppt/eng_spa_mult.ppt'), { converter: 'pptx', extension: '.pptx', warning: 'deck.ppt is a PowerPoint presentation (.pptx); converted as PPTX.' }],
    ['a .pptx that is an OLE2 PowerPoint 97 file', 'deck.pptx', corpusBytes('ppt/fake-power-point.ppt'), { converter: 'ppt', extension: '.ppt' }],
    ['a .docx that is an ODT', 'letter.docx', corpusBytes('odt/fake.odt'), { converter: 'odt', extension: '.odt', warning: 'letter.docx is an OpenDocument text document (.odt); converted as ODT.' }],
    ['an .odt that is an ODP', 'talk.odt', corpusBytes('odp/odf_presentation_01.odp'), { converter: 'odp', extension: '.odp' }],
    ['an .ods that is an XLSX', 'sheet.ods', corpusBytes('xlsx/xlsx_01.xlsx'), { converter: 'sheet', extension: '.xlsx' }],
    ['a .pdf that is an EPUB', 'book.pdf', corpusBytes('epub/winter-sports.epub'), { converter: 'epub', extension: '.epub', warning: 'book.pdf is an EPUB book; converted as EPUB.' }],
    ['a .doc that is a flat (single XML) OpenDocument text', 'letter.doc', text(FLAT_ODT), { converter: 'odt', extension: '.odt', warning: 'letter.doc is an OpenDocument text document (.odt); converted as ODT.' }],
    ['an .rtf that is a .doc', 'notes.rtf', corpusBytes('doc/fake-doc-emphasized-text.doc'), { converter: 'doc', extension: '.doc' }],
  ])('%s is routed to its real converter', (_label, fileName, bytes, expected) => {
    expect(routeDocument(fileName, bytes)).toMatchObject(expected);
  });

  it('no warning when the extension tells the truth, or names a sibling of the same format', () => {
    const route = routed;
    expect(route('a.docm', corpusBytes('docx/word_tables.docx'))).toEqual({ converter: 'docx', extension: '.docm', realType: 'docx' });
    expect(route('a.xlsb', corpusBytes('xlsx/xlsx_01.xlsx'))).toEqual({ converter: 'sheet', extension: '.xlsb', realType: 'xlsx' });
    expect(route('a.pptm', corpusBytes('pptx/powerpoint_sample.pptx'))).toEqual({ converter: 'pptx', extension: '.pptm', realType: 'pptx' });
    expect(route('a.htm', corpusBytes('xhtml/a.xhtml'))).toEqual({ converter: 'html', extension: '.htm', realType: 'html' });
    expect(route('a.odt', text(FLAT_ODT))).toEqual({ converter: 'odt', extension: '.odt', realType: 'odt' });
    expect(route('a.pdf', corpusBytes('pdf/TRUNCATED-layout-parser-paper-fast.pdf'))).toEqual({ converter: 'pdf', extension: '.pdf', realType: 'pdf' });
    // A web page may start with text or an element the sniffer does not list: its name decides.
    expect(route('a.html', text('Hello <b>world</b>'))).toEqual({ converter: 'html', extension: '.html', realType: 'html' });
    expect(route('a.xhtml', text('<x:page xmlns:x="http://www.w3.org/1999/xhtml"><x:p>Hi</x:p></x:page>'))).toEqual({ converter: 'html', extension: '.xhtml', realType: 'html' });
  });

  it('an Excel 2003 XML spreadsheet under .xls goes to the spreadsheet converter', async () => {
    const workbook = XLSX.utils.book_new(XLSX.utils.aoa_to_sheet([['name', 'qty'], ['bolt', 4]]), 'Parts');
    const bytes = new Uint8Array(XLSX.write(workbook, { type: 'buffer', bookType: 'xlml' }) as Buffer);
    expect(routed('parts.xls', bytes)).toEqual({ converter: 'sheet', extension: '.xls', realType: 'spreadsheet-xml' });
    const data = await parse(bytes, 'parts.xls');
    expect(data.warning).toBeUndefined();
    expect(data.markdown).toContain('| bolt | 4 |');
  });
});

describe('files that are no document: CORRUPT_DOCUMENT with what they look like', () => {
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const EXE = new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff, 0, 0]);

  it.each<[string, Uint8Array, string]>([
    ['scan.pdf', PNG, 'the file is not a PDF document: it looks like a PNG image'],
    ['setup.docx', EXE, 'the file is not a Word document: it looks like a Windows executable or library'],
    ['photos.xlsx', zipSync({ 'IMG_1.jpg': new Uint8Array([0xff, 0xd8, 0xff, 1]), 'IMG_2.jpg': new Uint8Array([0xff, 0xd8, 0xff, 2]) }), 'the file is not an Excel workbook: it looks like a zip archive of other files ("IMG_1.jpg", "IMG_2.jpg")'],
    ['data.csv', new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]), 'the file is not a CSV file: it looks like a gzip-compressed file'],
    ['report.docx', new Uint8Array([0, 1, 2, 3, 0, 0, 255, 7, 9, 9]), 'the file is not a Word document: it looks like binary data of no known document type (it starts with "........")'],
    ['config.csv', text('<?xml version="1.0"?><settings><a>1</a></settings>'), 'the file is not a CSV file: it looks like an XML document (root element <settings>)'],
    ['mail.doc', oleFile({ __substg1_0_0037001F: 10, '__substg1.0_0037001F': 10 }), 'the file is not a Word document: it looks like an Outlook message (.msg)'],
  ])('%s', async (fileName, bytes, message) => {
    const error = refusal(fileName, bytes);
    expect(error).toMatchObject({ apiCode: 'CORRUPT_DOCUMENT', message });
    await expect(parse(bytes, fileName)).rejects.toMatchObject({ apiCode: 'CORRUPT_DOCUMENT', message });
  });

  it('an extension the contract does not list is still UNSUPPORTED_FILE', () => {
    expect(refusal('notes.txt', text('hello'))).toMatchObject({ apiCode: 'UNSUPPORTED_FILE', message: expect.stringContaining('extension ".txt" is not supported') });
    expect(refusal('README', text('hello'))).toMatchObject({ apiCode: 'UNSUPPORTED_FILE' });
  });
});

describe('the right reason for an invalid file, raised before any converter', () => {
  const word = corpusBytes('docx/word_tables.docx');

  it('empty: 0 bytes, a zip with no entries or only empty ones, an OLE file with no streams', () => {
    expect(refusal('empty.pdf', new Uint8Array())).toMatchObject({ apiCode: 'EMPTY_DOCUMENT', message: 'the file is empty (0 bytes)' });
    expect(refusal('empty.docx', zipSync({}))).toMatchObject({ apiCode: 'EMPTY_DOCUMENT', message: 'the file is empty: it is a zip archive with no entries' });
    expect(refusal('empty.odt', zipSync({ 'content.xml': new Uint8Array() }))).toMatchObject({ apiCode: 'EMPTY_DOCUMENT', message: 'the file is empty: it is a zip archive whose one entry is empty' });
    expect(refusal('empty.doc', oleFile({}))).toMatchObject({ apiCode: 'EMPTY_DOCUMENT', message: 'the file is empty: it is an OLE compound file with no streams' });
  });

  it('encrypted: OOXML in an OLE (CDFV2) container, whatever its name; ODF with encryption data', () => {
    const ooxml = corpusBytes('xlsx/password_protected.xlsx');
    for (const fileName of ['budget.xlsx', 'budget.docx', 'budget.pptx', 'budget.xls']) {
      expect(refusal(fileName, ooxml)).toMatchObject({
        apiCode: 'ENCRYPTED_DOCUMENT',
        message: 'the file is password-protected: it is an encrypted Office document: an OOXML package inside an OLE (CDFV2) container; remove the password and convert it again',
      });
    }
    expect(refusal('b.xlsb', corpusBytes('xlsb/protected_passtika.xlsb'))).toMatchObject({ apiCode: 'ENCRYPTED_DOCUMENT' });
    expect(refusal('secret.ods', corpusBytes('ods/pass_protected.ods'))).toMatchObject({
      apiCode: 'ENCRYPTED_DOCUMENT',
      message: 'the file is password-protected: it is an OpenDocument spreadsheet (.ods) whose content is encrypted; remove the password and convert it again',
    });
  });

  it('encrypted PDF: the PDF converter says so', async () => {
    await expect(parse(corpusBytes('pdf/password.pdf'), 'locked.pdf')).rejects.toMatchObject({ apiCode: 'ENCRYPTED_DOCUMENT' });
  });

  it('a zip cut short after its main parts converts from a repaired package, saying so', () => {
    const route = routeDocument('cut.docx', word.subarray(0, Math.floor(word.length / 2)));
    expect(route).toMatchObject({ converter: 'docx', extension: '.docx', realType: 'docx' });
    expect(route.warning).toMatch(/^The file was cut short \(a Word document \(\.docx\) whose zip directory, at its end, is missing\): its \d+ whole parts were read/);
    expect(route.bytes).toBe(route.sniffed.repaired?.bytes);
    expect(route.bytes.length).toBeGreaterThan(Math.floor(word.length / 2));
  });

  it('corrupt: a zip cut short, a damaged OLE file, a package without its main part', () => {
    expect(refusal('cut.docx', cutInside(word, 'word/document.xml'))).toMatchObject({
      apiCode: 'CORRUPT_DOCUMENT',
      message:
        'the file is damaged or truncated: it is a Word document (.docx) without its main part (word/document.xml), cut short before that part ended (the 4 whole parts before the cut do not hold it)',
    });
    // A Word document cut before its text (one cut later is read from what is left: cfb-cut-word.ts), a workbook cut
    // inside its globals, which hold its sheet list and strings (one cut later: cfb-cut-workbook.ts).
    const doc = corpusBytes('doc/legacy_sample.doc');
    const xls = corpusBytes('xls/tests-example.xls');
    expect(refusal('cut.doc', doc.subarray(0, 2560))).toMatchObject({
      apiCode: 'CORRUPT_DOCUMENT',
      message: expect.stringMatching(/^the file is damaged or truncated: it is an OLE compound file \(the legacy Office container\) cut short/),
    });
    expect(refusal('cut.xls', xls.subarray(0, Math.floor(xls.length / 2)))).toMatchObject({
      apiCode: 'CORRUPT_DOCUMENT',
      message: 'the file is damaged or truncated: it is an Excel 97-2003 workbook (.xls) cut inside its globals, which hold its sheet list and shared strings',
    });
    const noBody = zipSync({
      '[Content_Types].xml': strToU8('<Types><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>'),
      'docProps/app.xml': strToU8('<Properties/>'),
    });
    expect(refusal('deck.pptx', noBody)).toMatchObject({
      apiCode: 'CORRUPT_DOCUMENT',
      message: 'the file is damaged or truncated: it is a PowerPoint presentation (.pptx) without its main part (ppt/presentation.xml)',
    });
  });

  it('a file that is not a zip under an OOXML or ODF name says what it is instead', () => {
    expect(refusal('a.xlsx', text('\u0000\u0001binary\u0000'))).toMatchObject({ apiCode: 'CORRUPT_DOCUMENT', message: expect.stringMatching(/^the file is not an Excel workbook: it looks like binary data/) });
  });
});

describe('the converter a name asks for (loaded ahead by a thread started for that file)', () => {
  it('is the one its honest extension is read by, and none for an extension the contract does not list', () => {
    expect(['r.pdf', 'p.htm', 'p.XHTML', 'b.xls', 'b.xlsb', 'd.docm', 's.pptm', 't.csv', 'o.odt', 'e.epub'].map(converterNamedBy)).toEqual([
      'pdf', 'html', 'html', 'sheet', 'sheet', 'docx', 'pptx', 'csv', 'odt', 'epub',
    ]);
    expect(converterNamedBy('notes.txt')).toBeUndefined();
    expect(converterNamedBy('README')).toBeUndefined();
  });
});
