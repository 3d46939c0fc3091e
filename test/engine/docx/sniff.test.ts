/**
 * sniffFormat on every file of the test corpus (the directory says what a file claims to be; the content decides),
 * and the zip / OLE readers behind it.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { isEncryptedOoxml, oleStreamNames, type SniffedFormat, sniffFormat, zipEntryNames } from '../../../src/engine/sniff.js';
import { corpusBytes, corpusPath } from '../html/helpers.js';

const BY_DIRECTORY: Record<string, SniffedFormat> = {
  csv: 'text',
  doc: 'ole',
  docm: 'zip-docx',
  docx: 'zip-docx',
  epub: 'zip-epub',
  htm: 'html',
  html: 'html',
  odp: 'zip-odf',
  ods: 'zip-odf',
  odt: 'zip-odf',
  pdf: 'pdf',
  ppt: 'ole',
  pptm: 'zip-pptx',
  pptx: 'zip-pptx',
  rtf: 'text',
  xhtml: 'html',
  xls: 'ole',
  xlsb: 'zip-xlsx',
  xlsm: 'zip-xlsx',
  xlsx: 'zip-xlsx',
};

/** Files whose content is not what their directory says. */
const EXCEPTIONS: Record<string, SniffedFormat> = {
  'doc/eng_spa_mult.doc': 'zip-docx',
  'ppt/eng_spa_mult.ppt': 'zip-pptx',
  'pdf/EMPTY-zero-bytes.pdf': 'unknown',
  'xlsx/password_protected.xlsx': 'ole',
  'xlsb/protected_passtika.xlsb': 'ole',
};

const files = readdirSync(corpusPath(''))
  .filter((directory) => statSync(corpusPath(directory)).isDirectory())
  .flatMap((directory) =>
    readdirSync(join(corpusPath(''), directory))
      .filter((name) => !name.endsWith('.md'))
      .map((name) => `${directory}/${name}`),
  );

describe('sniffFormat on the corpus', () => {
  it('finds the corpus', () => {
    expect(files.length).toBeGreaterThanOrEqual(60);
  });

  it.each(files)('%s', (file) => {
    const directory = file.split('/')[0] as string;
    const expected = EXCEPTIONS[file] ?? BY_DIRECTORY[directory];
    expect(expected, `no expectation for ${file}`).toBeDefined();
    expect(sniffFormat(corpusBytes(file))).toBe(expected);
  });
});

describe('OLE compound files', () => {
  it('lists the directory and spots encrypted OOXML', () => {
    expect(oleStreamNames(corpusBytes('xlsx/password_protected.xlsx'))).toEqual(expect.arrayContaining(['EncryptionInfo', 'EncryptedPackage']));
    expect(isEncryptedOoxml(corpusBytes('xlsx/password_protected.xlsx'))).toBe(true);
    expect(isEncryptedOoxml(corpusBytes('xlsb/protected_passtika.xlsb'))).toBe(true);
    expect(oleStreamNames(corpusBytes('doc/legacy_sample.doc'))).toContain('WordDocument');
    expect(isEncryptedOoxml(corpusBytes('doc/legacy_sample.doc'))).toBe(false);
    expect(oleStreamNames(corpusBytes('docx/empty.docx'))).toBeNull();
  });
});

describe('zip packages', () => {
  it('reads entry names from the central directory', () => {
    expect(zipEntryNames(corpusBytes('docx/empty.docx'))).toEqual(expect.arrayContaining(['word/document.xml', '[Content_Types].xml']));
  });

  it('reads a truncated zip from its local headers', () => {
    const whole = corpusBytes('docx/word_tables.docx');
    const names = zipEntryNames(whole.subarray(0, Math.floor(whole.length / 2)));
    expect(names?.length).toBeGreaterThan(0);
  });

  it('tells other zips apart', () => {
    expect(sniffFormat(zipSync({ 'a.txt': strToU8('x') }))).toBe('zip-other');
    expect(sniffFormat(zipSync({ mimetype: [strToU8('application/epub+zip'), { level: 0 }], 'META-INF/container.xml': strToU8('<c/>') }))).toBe('zip-epub');
    expect(sniffFormat(zipSync({ mimetype: [strToU8('application/vnd.oasis.opendocument.text'), { level: 0 }] }))).toBe('zip-odf');
    expect(sniffFormat(zipSync({ '[Content_Types].xml': strToU8('<T/>'), 'word/document2.xml': strToU8('<d/>') }))).toBe('zip-docx');
  });
});

describe('text and markup', () => {
  const sniff = (text: string) => sniffFormat(new TextEncoder().encode(text));

  it('recognises HTML by its start, after BOMs, XML prologs and comments', () => {
    expect(sniff('<!DOCTYPE html><p>x')).toBe('html');
    expect(sniff('\uFEFF  <html><body>')).toBe('html');
    expect(sniff('<?xml version="1.0"?>\n<!-- c -->\n<html xmlns="http://www.w3.org/1999/xhtml">')).toBe('html');
    expect(sniff('<table><tr><td>1</td></tr></table>')).toBe('html');
    expect(sniffFormat(new Uint8Array([0xff, 0xfe, ...Buffer.from('<html><body>', 'utf16le')]))).toBe('html');
  });

  it('falls back to text, then unknown for binary junk', () => {
    expect(sniff('a,b,c\n1,2,3\n')).toBe('text');
    expect(sniff('{\\rtf1\\ansi hello}')).toBe('text');
    expect(sniffFormat(new Uint8Array([0, 1, 2, 3, 0, 0, 255, 7]))).toBe('unknown');
    expect(sniffFormat(new Uint8Array())).toBe('unknown');
    expect(sniff('%PDF-1.4\n')).toBe('pdf');
  });
});
