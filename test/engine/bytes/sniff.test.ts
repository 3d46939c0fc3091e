/**
 * sniff: every corpus file sniffed to what its content is (the directory says what a file claims), the
 * containers, markup and signatures it tells apart, including encrypted, empty and damaged ones, and the container
 * it hands on with its verdict.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { DamagedCompoundFile, openCompoundFile } from '../../../src/engine/bytes/cfb.js';
import { type DocumentType, findPdfHeader, type RealType, sniff as sniffFile, sniffBytes } from '../../../src/engine/bytes/sniff.js';
import { readEntryPrefix, readZipDirectory } from '../../../src/engine/bytes/zip.js';
import { corpusBytes, corpusPath } from '../html/helpers.js';
import { oleFile, withEndOfCentralDirectoryOffset } from './make-bytes.js';
import { cutInside } from '../../helpers/cut-zip.js';

const document = (type: DocumentType): RealType => ({ kind: 'document', type });

const BY_DIRECTORY: Record<string, RealType> = {
  csv: document('text'),
  doc: document('doc'),
  docm: document('docx'),
  docx: document('docx'),
  epub: document('epub'),
  htm: document('html'),
  html: document('html'),
  odp: document('odp'),
  ods: document('ods'),
  odt: document('odt'),
  pdf: document('pdf'),
  ppt: document('ppt'),
  pptm: document('pptx'),
  pptx: document('pptx'),
  rtf: document('rtf'),
  xhtml: document('html'),
  xls: document('xls'),
  xlsb: document('xlsb'),
  xlsm: document('xlsx'),
  xlsx: document('xlsx'),
};

/** Files whose content is not what their directory says. */
const EXCEPTIONS: Record<string, Partial<RealType>> = {
  'doc/eng_spa_mult.doc': document('docx'),
  'ppt/eng_spa_mult.ppt': document('pptx'),
  'pdf/EMPTY-zero-bytes.pdf': { kind: 'empty' },
  'xlsx/password_protected.xlsx': { kind: 'encrypted', type: null },
  'xlsb/protected_passtika.xlsb': { kind: 'encrypted', type: null },
  'ods/pass_protected.ods': { kind: 'encrypted', type: 'ods' },
};

const files = readdirSync(corpusPath(''))
  .filter((directory) => statSync(corpusPath(directory)).isDirectory())
  .flatMap((directory) =>
    readdirSync(join(corpusPath(''), directory))
      .filter((name) => !name.endsWith('.md'))
      .map((name) => `${directory}/${name}`),
  );

describe('sniffBytes on the corpus', () => {
  it('finds the corpus', () => {
    expect(files.length).toBeGreaterThanOrEqual(60);
  });

  it.each(files)('%s', (file) => {
    const directory = file.split('/')[0] as string;
    const expected = EXCEPTIONS[file] ?? BY_DIRECTORY[directory];
    expect(expected, `no expectation for ${file}`).toBeDefined();
    expect(sniffBytes(corpusBytes(file))).toMatchObject(expected as object);
  });

  it('names the cause of the encrypted ones', () => {
    expect(sniffBytes(corpusBytes('xlsx/password_protected.xlsx'))).toMatchObject({ what: expect.stringMatching(/encrypted Office document: an OOXML package inside an OLE \(CDFV2\)/) });
    expect(sniffBytes(corpusBytes('ods/pass_protected.ods'))).toMatchObject({ what: 'an OpenDocument spreadsheet (.ods) whose content is encrypted' });
  });
});

describe('zip packages', () => {
  const stored = (text: string): [Uint8Array, { level: 0 }] => [strToU8(text), { level: 0 }];

  it('OOXML by the main part [Content_Types].xml declares, wherever it lives', () => {
    const types = (contentType: string) =>
      `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/main/body.xml" ContentType="${contentType}"/></Types>`;
    const packageOf = (contentType: string) => zipSync({ '[Content_Types].xml': strToU8(types(contentType)), 'main/body.xml': strToU8('<x/>') });
    expect(sniffBytes(packageOf('application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml'))).toEqual(document('docx'));
    expect(sniffBytes(packageOf('application/vnd.ms-word.document.macroEnabled.main+xml'))).toEqual(document('docx'));
    expect(sniffBytes(packageOf('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml'))).toEqual(document('xlsx'));
    expect(sniffBytes(packageOf('application/vnd.ms-excel.sheet.binary.macroEnabled.main'))).toEqual(document('xlsb'));
    expect(sniffBytes(packageOf('application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml'))).toEqual(document('pptx'));
    expect(sniffBytes(packageOf('application/vnd.ms-visio.drawing.main+xml'))).toEqual({ kind: 'other', looksLike: 'a Visio drawing' });
  });

  it('OOXML by part names when the content types say nothing', () => {
    expect(sniffBytes(zipSync({ '[Content_Types].xml': strToU8('<Types/>'), 'word/document2.xml': strToU8('<d/>') }))).toEqual(document('docx'));
    expect(sniffBytes(zipSync({ 'ppt/presentation.xml': strToU8('<p/>') }))).toEqual(document('pptx'));
  });

  it('part names match the declared main part whatever their case (OPC part names are case-insensitive)', () => {
    const bytes = zipSync({
      '[Content_Types].xml': strToU8('<Types><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>'),
      'XL/Workbook.xml': strToU8('<workbook/>'),
    });
    expect(sniffBytes(bytes)).toEqual(document('xlsx'));
  });

  it('an OOXML package whose declared main part is missing is damaged', () => {
    const bytes = zipSync({
      '[Content_Types].xml': strToU8('<Types><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'),
      'docProps/core.xml': strToU8('<c/>'),
    });
    expect(sniffBytes(bytes)).toEqual({ kind: 'damaged', type: 'docx', what: 'a Word document (.docx) without its main part (word/document.xml)' });
  });

  it('ODF by mimetype, by the manifest root, or by the body element of content.xml', () => {
    expect(sniffBytes(zipSync({ mimetype: stored('application/vnd.oasis.opendocument.presentation'), 'content.xml': strToU8('<x/>') }))).toEqual(document('odp'));
    const manifest = (mediaType: string) =>
      `<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mediaType}"/></manifest:manifest>`;
    expect(sniffBytes(zipSync({ 'META-INF/manifest.xml': strToU8(manifest('application/vnd.oasis.opendocument.spreadsheet')), 'content.xml': strToU8('<x/>') }))).toEqual(document('ods'));
    // No mimetype and a manifest without a root entry: the first element of the body decides, past long styles.
    const styles = `<office:automatic-styles>${'<style:style style:name="P1"/>'.repeat(20_000)}</office:automatic-styles>`;
    const content = `<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0">${styles}<office:body><office:text><text:p>Hi</text:p></office:text></office:body></office:document-content>`;
    expect(sniffBytes(zipSync({ 'META-INF/manifest.xml': strToU8('<manifest:manifest/>'), 'content.xml': strToU8(content) }))).toEqual(document('odt'));
    expect(sniffBytes(zipSync({ mimetype: stored('application/vnd.oasis.opendocument.graphics'), 'content.xml': strToU8('<x/>') }))).toEqual({ kind: 'other', looksLike: 'an OpenDocument drawing' });
  });

  it('ODF without its content.xml is damaged', () => {
    expect(sniffBytes(zipSync({ mimetype: stored('application/vnd.oasis.opendocument.text'), 'styles.xml': strToU8('<s/>') }))).toEqual({
      kind: 'damaged',
      type: 'odt',
      what: 'an OpenDocument text document (.odt) without its content (content.xml)',
    });
  });

  it('a part that inflates far beyond what is read costs no more than the cap', () => {
    // 8 MiB of blanks before the body: the sniffer reads 4 MiB of content.xml and gives up on the body element.
    const content = new Uint8Array(8 * 1024 * 1024).fill(0x20);
    content.set(strToU8('<office:document-content>'));
    content.set(strToU8('<office:body><office:text/></office:body>'), content.length - 100);
    const bytes = zipSync({ 'META-INF/manifest.xml': strToU8('<manifest:manifest/>'), 'content.xml': content }, { level: 1 });
    const started = performance.now();
    expect(sniffBytes(bytes)).toMatchObject({ kind: 'other' });
    expect(performance.now() - started).toBeLessThan(2000);
    const entry = readZipDirectory(bytes)?.entries.find((candidate) => candidate.name === 'content.xml');
    expect(entry && readEntryPrefix(bytes, entry, 4096)?.length).toBe(4096);
  });

  it('ODF whose manifest lists encryption data is encrypted', () => {
    const manifest =
      '<manifest:manifest><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data manifest:checksum="x"/></manifest:file-entry></manifest:manifest>';
    const bytes = zipSync({ mimetype: stored('application/vnd.oasis.opendocument.text'), 'META-INF/manifest.xml': strToU8(manifest), 'content.xml': new Uint8Array([1, 2, 3]) });
    expect(sniffBytes(bytes)).toEqual({ kind: 'encrypted', type: 'odt', what: 'an OpenDocument text document (.odt) whose content is encrypted' });
  });

  it('EPUB by mimetype or by its container and package document', () => {
    expect(sniffBytes(zipSync({ mimetype: stored('application/epub+zip'), 'META-INF/container.xml': strToU8('<c/>') }))).toEqual(document('epub'));
    expect(sniffBytes(zipSync({ 'META-INF/container.xml': strToU8('<c/>'), 'OEBPS/content.opf': strToU8('<package/>') }))).toEqual(document('epub'));
  });

  it('a zip of other files says what it holds', () => {
    expect(sniffBytes(zipSync({ 'a.txt': strToU8('x'), 'b/c.png': strToU8('y') }))).toEqual({ kind: 'other', looksLike: 'a zip archive of other files ("a.txt", "b/c.png")' });
    expect(sniffBytes(zipSync({ 'META-INF/MANIFEST.MF': strToU8('Manifest-Version: 1.0') }))).toEqual({ kind: 'other', looksLike: 'a Java archive (JAR)' });
  });

  it('empty: no entries, or only empty ones', () => {
    expect(sniffBytes(zipSync({}))).toEqual({ kind: 'empty', what: 'a zip archive with no entries' });
    expect(sniffBytes(zipSync({ 'word/': new Uint8Array(), 'word/document.xml': new Uint8Array() }))).toEqual({ kind: 'empty', what: 'a zip archive whose 2 entries are all empty' });
  });

  it('truncated: the central directory is missing; the parts before the cut are read through a new one', () => {
    const whole = corpusBytes('docx/word_tables.docx');
    const cut = whole.subarray(0, Math.floor(whole.length / 2));
    expect(readZipDirectory(cut)?.problem).toBe('truncated');
    const sniffed = sniffFile(cut);
    expect(sniffed.real).toEqual({ kind: 'document', type: 'docx' });
    expect(sniffed.zip?.has('word/document.xml')).toBe(true);
    expect(sniffed.repaired?.warning).toMatch(/^The file was cut short/);
  });

  it('truncated inside the main part: the parts before the cut still say what it was, and that its text is lost', () => {
    const cut = cutInside(corpusBytes('docx/word_tables.docx'), 'word/document.xml');
    expect(readZipDirectory(cut)?.problem).toBe('truncated');
    expect(readZipDirectory(cut)?.entries.length).toBeGreaterThan(0);
    expect(sniffFile(cut).repaired).toBeUndefined();
    expect(sniffBytes(cut)).toEqual({
      kind: 'damaged',
      type: 'docx',
      what: 'a Word document (.docx) without its main part (word/document.xml), cut short before that part ended (the 4 whole parts before the cut do not hold it)',
    });
  });

  it('damaged: the end record hides a second one in its comment (readers would disagree on the directory)', () => {
    const zip = corpusBytes('xlsx/xlsx_01.xlsx');
    const comment = Uint8Array.from([0x78, 0x78, 0x50, 0x4b, 0x05, 0x06, 0, 0, 0, 0]);
    const bytes = new Uint8Array(zip.length + comment.length);
    bytes.set(zip);
    bytes.set(comment, zip.length);
    new DataView(bytes.buffer).setUint16(zip.length - 2, comment.length, true);
    expect(readZipDirectory(bytes)?.problem).toBe('damaged');
    expect(sniffBytes(bytes)).toMatchObject({ kind: 'damaged', type: 'xlsx' });
  });

  it('damaged: the end record points at no directory', () => {
    const broken = withEndOfCentralDirectoryOffset(corpusBytes('xlsx/xlsx_01.xlsx'), 3);
    expect(readZipDirectory(broken)?.problem).toBe('damaged');
    expect(sniffBytes(broken)).toMatchObject({ kind: 'damaged', type: 'xlsx', what: expect.stringMatching(/^a zip package whose central directory is damaged/) });
  });
});

describe('OLE compound files', () => {
  it('by their streams: Word, Excel, PowerPoint, encrypted OOXML', () => {
    expect(sniffBytes(oleFile({ WordDocument: 100, '1Table': 100 }))).toEqual(document('doc'));
    expect(sniffBytes(oleFile({ Workbook: 100 }))).toEqual(document('xls'));
    expect(sniffBytes(oleFile({ Book: 100 }))).toEqual(document('xls'));
    expect(sniffBytes(oleFile({ 'PowerPoint Document': 100 }))).toEqual(document('ppt'));
    expect(sniffBytes(oleFile({ EncryptionInfo: 100, EncryptedPackage: 5000 }))).toMatchObject({ kind: 'encrypted' });
    expect(sniffBytes(oleFile({ VisioDocument: 100 }))).toEqual({ kind: 'other', looksLike: 'a Visio drawing (.vsd)' });
    expect(sniffBytes(oleFile({}))).toEqual({ kind: 'empty', what: 'an OLE compound file with no streams' });
  });

  it('lists the directory of real files, and hands the opened file on with the verdict', () => {
    const streams = (file: string) => sniffFile(corpusBytes(file)).cfb?.entries.map((entry) => entry.name) ?? null;
    expect(streams('xlsx/password_protected.xlsx')).toEqual(expect.arrayContaining(['EncryptionInfo', 'EncryptedPackage']));
    expect(sniffBytes(corpusBytes('xlsb/protected_passtika.xlsb'))).toMatchObject({ kind: 'encrypted', what: expect.stringContaining('OOXML package inside an OLE') });
    expect(streams('doc/legacy_sample.doc')).toContain('WordDocument');
    expect(sniffBytes(corpusBytes('doc/legacy_sample.doc'))).toEqual(document('doc'));
    expect(streams('docx/empty.docx')).toBeNull();
  });

  it('a file cut short is damaged, wherever the cut falls', () => {
    const whole = corpusBytes('doc/legacy_sample.doc');
    const opened = (bytes: Uint8Array): string => {
      try {
        return openCompoundFile(bytes).cutShort ? 'cut short: sectors it uses lie beyond the end of the file' : 'whole';
      } catch (error) {
        if (error instanceof DamagedCompoundFile) return error.damage;
        throw error;
      }
    };
    for (const share of [0.05, 0.5, 0.99]) {
      const cut = whole.subarray(0, Math.floor(whole.length * share));
      expect(opened(cut), `cut at ${share}`).toMatch(/^cut short/);
      // A Word document is read from the streams that hold its text (cfb-cut-word.ts), saying so.
      const sniffed = sniffFile(cut);
      expect(sniffed.real, `cut at ${share}`).toEqual(document('doc'));
      expect(sniffed.repaired?.warning).toMatch(/^The file was cut short \(a Word 97-2003 document whose allocation table and directory, at its end, are missing\)/);
      expect(sniffed.cfb?.read('WordDocument')?.subarray(0, 2)).toEqual(Uint8Array.of(0xec, 0xa5));
    }
    // An Excel workbook is read from its Workbook stream (cfb-cut-workbook.ts), as the bare BIFF stream it is.
    const workbook = corpusBytes('xls/tests-example.xls');
    const cutWorkbook = sniffFile(workbook.subarray(0, Math.floor(workbook.length * 0.9)));
    expect(cutWorkbook.real).toEqual(document('xls'));
    expect(cutWorkbook.cfb).toBeUndefined();
    expect(cutWorkbook.repaired?.bytes.subarray(0, 8)).toEqual(Uint8Array.of(0x09, 0x08, 0x10, 0x00, 0x00, 0x06, 0x05, 0x00));
    expect(cutWorkbook.repaired?.warning).toMatch(/^The file was cut short \(an Excel 97-2003 workbook whose allocation table or directory, at its end, is missing\)/);
    // Cut before its text, or a workbook cut inside its globals (its sheet list and strings): damaged.
    expect(sniffBytes(whole.subarray(0, 2560))).toMatchObject({ kind: 'damaged', what: expect.stringMatching(/^an OLE compound file \(the legacy Office container\) cut short/) });
    expect(sniffBytes(workbook.subarray(0, 4096))).toMatchObject({ kind: 'damaged', what: 'an Excel 97-2003 workbook (.xls) cut inside its globals, which hold its sheet list and shared strings' });
    // A PowerPoint presentation is read from its PowerPoint Document stream when it is whole (cfb-cut-presentation.ts).
    const slides = corpusBytes('ppt/fake-power-point.ppt');
    const cutSlides = sniffFile(slides.subarray(0, Math.floor(slides.length * 0.9)));
    expect(cutSlides.real).toEqual(document('ppt'));
    expect(cutSlides.cfb?.read('PowerPoint Document')?.length).toBeGreaterThan(10_000);
    expect(sniffBytes(slides.subarray(0, 12_000))).toMatchObject({ kind: 'damaged', what: expect.stringMatching(/^a PowerPoint 97-2003 presentation \(\.ppt\) cut inside its PowerPoint Document stream/) });
    expect(opened(whole)).toBe('whole');
    expect(sniffBytes(whole.subarray(0, 300))).toMatchObject({ kind: 'damaged', what: expect.stringContaining('cut short: the file is 300 bytes, shorter than the 512-byte header') });
  });
});

describe('text and markup', () => {
  const sniff = (text: string) => sniffBytes(new TextEncoder().encode(text));

  it('RTF by {\\rtf, after blanks', () => {
    expect(sniff('{\\rtf1\\ansi hello}')).toEqual(document('rtf'));
    expect(sniff('\r\n {\\rtf1 x}')).toEqual(document('rtf'));
  });

  it('HTML and XHTML after a BOM, blanks, an XML prolog and comments, with or without a doctype', () => {
    expect(sniff('<!DOCTYPE html><p>x')).toEqual(document('html'));
    expect(sniff('\uFEFF  <html><body>')).toEqual(document('html'));
    expect(sniff('<?xml version="1.0"?>\n<!-- c -->\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "x">\n<html xmlns="http://www.w3.org/1999/xhtml">')).toEqual(document('html'));
    expect(sniff('<table><tr><td>1</td></tr></table>')).toEqual(document('html'));
    expect(sniff(`<!--${' '.repeat(6000)}-->\n<html><head></head><body>x</body></html>`)).toEqual(document('html'));
    expect(sniffBytes(new Uint8Array([0xff, 0xfe, ...Buffer.from('<html><body>', 'utf16le')]))).toEqual(document('html'));
    expect(sniffBytes(new Uint8Array(Buffer.from('<html><body>Hi</body></html>', 'utf16le')))).toEqual(document('html'));
  });

  it('XML spreadsheets (Excel 2003 XML, flat ODS) and other XML', () => {
    expect(sniff('<?xml version="1.0"?><?mso-application progid="Excel.Sheet"?><Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet">')).toEqual(document('spreadsheet-xml'));
    expect(sniff('<?xml version="1.0"?><office:document xmlns:office="o" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">')).toEqual(document('spreadsheet-xml'));
    const flat = (kind: string) =>
      `<?xml version="1.0"?><office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.${kind}"><office:body/></office:document>`;
    expect(sniff(flat('text'))).toEqual(document('odt'));
    expect(sniff(flat('presentation'))).toEqual({ kind: 'other', looksLike: 'a flat (single XML) OpenDocument presentation, which is read only for text and spreadsheets', xml: true });
    expect(sniff('<?xml version="1.0"?><note><to>Ann</to></note>')).toEqual({ kind: 'other', looksLike: 'an XML document (root element <note>)', xml: true });
    expect(sniff('<svg xmlns="http://www.w3.org/2000/svg"></svg>')).toEqual({ kind: 'other', looksLike: 'an SVG image', xml: true });
    // A CSV whose first cell looks like a tag is still text.
    expect(sniff('<Name>,<Age>\nAnn,3\n')).toEqual(document('text'));
  });

  it('other text by the one detector; binary by its signature', () => {
    expect(sniff('a,b,c\n1,2,3\n')).toEqual(document('text'));
    expect(sniff('MZ,total\n1,2\n')).toEqual(document('text'));
    expect(sniffBytes(new Uint8Array(Buffer.from('a;b\n1;2\n', 'utf16le')))).toEqual(document('text'));
    expect(sniffBytes(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toEqual({ kind: 'other', looksLike: 'a PNG image' });
    expect(sniffBytes(new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0]))).toEqual({ kind: 'other', looksLike: 'a Windows executable or library' });
    expect(sniffBytes(new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]))).toEqual({ kind: 'other', looksLike: 'a gzip-compressed file' });
    expect(sniffBytes(new Uint8Array([0, 1, 2, 3, 0, 0, 255, 7]))).toEqual({ kind: 'other', looksLike: 'binary data of no known document type (it starts with "........")' });
    expect(sniffBytes(new Uint8Array())).toEqual({ kind: 'empty', what: 'the file has 0 bytes' });
  });

  it('PDF at the start or after junk within the first KiB', () => {
    expect(sniff('%PDF-1.4\n')).toEqual(document('pdf'));
    expect(sniff(`${' '.repeat(100)}%PDF-1.4\n`)).toEqual(document('pdf'));
    expect(findPdfHeader(new TextEncoder().encode(`${' '.repeat(2000)}%PDF-1.4`))).toBe(-1);
  });

  it('a bare BIFF worksheet (Excel 2-4) is an Excel workbook', () => {
    const bytes = XLSX.write(XLSX.utils.book_new(XLSX.utils.aoa_to_sheet([['a']])), { type: 'buffer', bookType: 'biff2' }) as Buffer;
    expect(sniffBytes(new Uint8Array(bytes))).toEqual(document('xls'));
  });
});

describe('the container comes with the verdict, opened once for the converter', () => {
  const CONTAINERS: Record<string, [Partial<RealType>, 'zip' | 'cfb' | null]> = {
    'doc/eng_spa_mult.doc': [document('docx'), 'zip'],
    'doc/legacy_sample.doc': [document('doc'), 'cfb'],
    'xlsx/password_protected.xlsx': [{ kind: 'encrypted' }, 'cfb'],
    'ods/pass_protected.ods': [{ kind: 'encrypted', type: 'ods' }, null],
    'ppt/eng_spa_mult.ppt': [document('pptx'), 'zip'],
    'xlsb/sample.xlsb': [document('xlsb'), 'zip'],
    'epub/winter-sports.epub': [document('epub'), 'zip'],
    'html/wiki_duck.html': [document('html'), null],
    'rtf/fake-doc.rtf': [document('rtf'), null],
    'csv/csv-comma.csv': [document('text'), null],
    'pdf/password.pdf': [document('pdf'), null],
    'pdf/EMPTY-zero-bytes.pdf': [{ kind: 'empty' }, null],
  };
  it.each(Object.entries(CONTAINERS))('%s', (file, [real, container]) => {
    const sniffed = sniffFile(corpusBytes(file));
    expect(sniffed.real).toMatchObject(real);
    expect(sniffed.zip !== undefined ? 'zip' : sniffed.cfb !== undefined ? 'cfb' : null).toBe(container);
  });

  it('opens no archive that is no document', () => {
    expect(sniffFile(zipSync({ 'a.txt': strToU8('x') }))).toEqual({ real: { kind: 'other', looksLike: 'a zip archive of other files ("a.txt")' } });
    expect(sniffFile(new Uint8Array([0, 1, 2, 3, 0, 0, 255, 7]))).toEqual({ real: { kind: 'other', looksLike: 'binary data of no known document type (it starts with "........")' } });
  });
});
