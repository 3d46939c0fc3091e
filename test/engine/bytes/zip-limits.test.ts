/**
 * One zip reader, one set of limits: a zip bomb inside a .docx, .xlsx, .pptx, .odt, .ods, .odp or .epub gets the
 * same code, DOCUMENT_TOO_COMPLEX, and a message of the same shape, whichever converter the file would go to.
 * Two bombs: an honest one (its directory declares the ratio, refused before anything is inflated) and a lying
 * one (the directory declares an innocent size for the part the converter, or the library it hands the bytes to,
 * reads: stopped while it inflates).
 */
import * as XLSX from '@e965/xlsx';
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readZipDirectory, ZIP_LIMITS } from '../../../src/engine/bytes/zip.js';
import { parseDocument } from '../../../src/engine/engine.js';
import { EngineError } from '../../../src/engine/engine-error.js';
import { makeDocx, paragraph } from '../docx/make-docx.js';
import { makeEpub } from '../epub/make-epub.js';
import { options } from '../html/helpers.js';
import { makeOdt, p } from '../odt/make-odt.js';
import { makeOdp, makePptx, para, placeholder } from '../slides/make-deck.js';

const workbook = (bookType: 'xlsx' | 'ods') =>
  new Uint8Array(XLSX.write(XLSX.utils.book_new(XLSX.utils.aoa_to_sheet([['a', 'b'], [1, 2]]), 'Sheet1'), { type: 'buffer', bookType }) as Buffer);

interface Format {
  fileName: string;
  /** What the file is, as errors name it. */
  what: string;
  package: () => Uint8Array;
  /** A part the conversion reads (itself, or through the library it hands the bytes to). */
  readPart: string;
}

const FORMATS: Format[] = [
  { fileName: 'report.docx', what: 'a Word document (.docx)', package: () => makeDocx({ body: paragraph('Tiny') }), readPart: 'word/document.xml' },
  { fileName: 'book.xlsx', what: 'an Excel workbook (.xlsx)', package: () => workbook('xlsx'), readPart: 'xl/worksheets/sheet1.xml' },
  { fileName: 'deck.pptx', what: 'a PowerPoint presentation (.pptx)', package: () => makePptx({ slides: [{ shapes: placeholder('title', para('Tiny')) }] }), readPart: 'ppt/slides/slide1.xml' },
  { fileName: 'letter.odt', what: 'an OpenDocument text document (.odt)', package: () => makeOdt({ body: p('Tiny') }), readPart: 'content.xml' },
  { fileName: 'sheet.ods', what: 'an OpenDocument spreadsheet (.ods)', package: () => workbook('ods'), readPart: 'content.xml' },
  { fileName: 'talk.odp', what: 'an OpenDocument presentation (.odp)', package: () => makeOdp({ pages: [{ content: '' }] }), readPart: 'content.xml' },
  {
    fileName: 'novel.epub',
    what: 'an EPUB book',
    package: () => makeEpub({ chapters: [{ id: 'a', href: 'text/a.xhtml', body: '<p>Tiny</p>' }] }),
    readPart: 'OEBPS/text/a.xhtml',
  },
];

/** 16 MiB of one byte after an XML declaration: deflates about a thousand times. */
function bombContent(): Uint8Array {
  const content = new Uint8Array(16 * 1024 * 1024).fill(0x20);
  content.set(strToU8('<?xml version="1.0"?>'));
  return content;
}

/** The package with `name` set to `content` (added, or replacing the part), deflated as hard as it goes. */
function withPart(zip: Uint8Array, name: string, content: Uint8Array): Uint8Array {
  const files: Zippable = { ...unzipSync(zip) };
  files[name] = content;
  return zipSync(files, { level: 9 });
}

/** Declares `size` as the uncompressed size of `name`, in the central directory and in the local header. */
function declareSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const bytes = zip.slice();
  const view = new DataView(bytes.buffer);
  const entry = readZipDirectory(bytes)?.entries.find((candidate) => candidate.name === name);
  if (entry === undefined) throw new Error(`no entry ${name}`);
  view.setUint32(entry.localHeaderOffset + 22, size, true);
  for (let at = bytes.length - 22; at >= 0; at -= 1) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    if (strFromU8(bytes.subarray(at + 46, at + 46 + view.getUint16(at + 28, true))) === name) {
      view.setUint32(at + 24, size, true);
      return bytes;
    }
  }
  throw new Error(`no central directory record for ${name}`);
}

async function failure(bytes: Uint8Array, fileName: string): Promise<EngineError> {
  try {
    await parseDocument({ bytes, fileName, options: options() });
  } catch (error) {
    if (error instanceof EngineError) return error;
    throw error;
  }
  throw new Error(`${fileName} converted`);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('a zip bomb gets the same code and message everywhere', () => {
  it('every package converts before it is armed', async () => {
    for (const format of FORMATS) {
      const data = await parseDocument({ bytes: format.package(), fileName: format.fileName, options: options() });
      expect(data.markdown, format.fileName).toBeDefined();
    }
  });

  it.each(FORMATS)('$fileName holding an over-ratio part: refused from its directory', async (format) => {
    const bytes = withPart(format.package(), 'bomb.xml', bombContent());
    const entry = readZipDirectory(bytes)?.entries.find((candidate) => candidate.name === 'bomb.xml');
    expect((entry?.uncompressedSize ?? 0) / (entry?.compressedSize ?? 1)).toBeGreaterThan(ZIP_LIMITS.ratio * 5);
    const error = await failure(bytes, format.fileName);
    expect(error.apiCode).toBe('DOCUMENT_TOO_COMPLEX');
    expect(error.message).toMatch(
      new RegExp(
        `^the file is too large to convert: it is ${escape(format.what)} whose part bomb\\.xml inflates to 16 MiB, [\\d,]+ times its compressed size ` +
          '\\(limit 100 times for a part over 1 MiB\\)$',
      ),
    );
  });

  it.each(FORMATS)('$fileName whose directory lies about a part it reads: stopped while inflating', async (format) => {
    const armed = withPart(format.package(), format.readPart, bombContent());
    const bytes = declareSize(armed, format.readPart, 64 * 1024);
    const error = await failure(bytes, format.fileName);
    expect(error.apiCode).toBe('DOCUMENT_TOO_COMPLEX');
    expect(error.message).toBe(
      `the file is too large to convert: it is ${format.what} whose part ${format.readPart} inflates to more than 100 times its compressed size ` +
        '(limit 100 times for a part over 1 MiB)',
    );
  });

  it('a workbook whose local header declares more than the per-part limit (SheetJS allocates what it declares)', async () => {
    const bytes = workbook('xlsx');
    const entry = readZipDirectory(bytes)?.entries.find((candidate) => candidate.name === 'xl/worksheets/sheet1.xml');
    if (entry === undefined) throw new Error('no sheet part');
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(entry.localHeaderOffset + 22, 0xfffffff0, true);
    const error = await failure(bytes, 'book.xlsx');
    expect(error.apiCode).toBe('DOCUMENT_TOO_COMPLEX');
    expect(error.message).toBe('the file is too large to convert: it is an Excel workbook (.xlsx) whose part xl/worksheets/sheet1.xml inflates to 4,096 MiB (limit 64 MiB per part)');
  });

  it.each(FORMATS)('$fileName with more parts than the limit', async (format) => {
    const files: Zippable = { ...unzipSync(format.package()) };
    for (let index = 0; index < ZIP_LIMITS.entries; index += 1) files[`padding/${index}`] = new Uint8Array(0);
    const error = await failure(zipSync(files, { level: 0 }), format.fileName);
    expect(error.apiCode).toBe('DOCUMENT_TOO_COMPLEX');
    expect(error.message).toBe(`the file is too large to convert: it is ${format.what} whose zip package has more than 20,000 parts`);
  });
});
