/**
 * Office, OpenDocument and EPUB files cut short, as an interrupted download or upload leaves them: the zip's central
 * directory, at the end, is gone, often with the last parts. The parts before the cut are read through a new
 * directory (zip-repair.ts), and the document converts from them, saying so.
 */
import { unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { ParseData } from '../../../src/contract/response.js';
import { validateParseOptions } from '../../../src/contract/validation.js';
import { readZipDirectory } from '../../../src/engine/bytes/zip.js';
import { repairCutZip } from '../../../src/engine/bytes/zip-repair.js';
import { parseDocument } from '../../../src/engine/engine.js';
import { readCorpusBytes } from '../../helpers/corpus.js';
import { cutInside } from '../../helpers/cut-zip.js';

function parse(fileName: string, bytes: Uint8Array): Promise<ParseData> {
  const validation = validateParseOptions({});
  if (!validation.ok) throw new Error('invalid options');
  return parseDocument({ bytes, fileName, options: validation.options });
}

async function failure(fileName: string, bytes: Uint8Array): Promise<{ apiCode?: string; message: string }> {
  try {
    await parse(fileName, bytes);
  } catch (error) {
    return error as { apiCode?: string; message: string };
  }
  throw new Error(`${fileName} converted`);
}

/** Without its last `count` bytes: the end record and the directory's tail, no part's data. */
function withoutEnd(bytes: Uint8Array, count = 200): Uint8Array {
  return bytes.subarray(0, bytes.length - count);
}

const CUT_SHORT = /^The file was cut short \(.+ whose zip directory, at its end, is missing\): its \d+ whole parts were read, and what came after them is missing\.$/;

describe('a package cut short converts from the parts before the cut', () => {
  // Word, Excel (sizes in each local header), PowerPoint; LibreOffice's OpenDocument and an Excel file written with
  // data descriptors (sizes after each part's data) and their content types last; an EPUB book.
  for (const file of [
    'docx/word_tables.docx',
    'xlsx/xlsx_01.xlsx',
    'xlsx/xlsx_06_edge_cases_.xlsx',
    'pptx/powerpoint_sample.pptx',
    'odt/text_document_03.odt',
    'epub/winter-sports.epub',
  ]) {
    it(`${file}: the directory lost, every part read: the intact file's Markdown`, async () => {
      const bytes = readCorpusBytes(file);
      const name = file.split('/')[1]!;
      const intact = await parse(name, bytes);
      const cut = await parse(name, withoutEnd(bytes));
      expect(cut.markdown).toBe(intact.markdown);
      expect(cut.warning).toMatch(CUT_SHORT);
    });
  }

  it('the parts after the cut are missing: the sheets still there are read, the others said to be missing', async () => {
    const bytes = readCorpusBytes('xlsx/xlsx_01.xlsx');
    const intact = (await parse('xlsx_01.xlsx', bytes)).markdown ?? '';
    const cut = await parse('xlsx_01.xlsx', bytes.subarray(0, Math.floor(bytes.length * 0.9)));
    const markdown = cut.markdown ?? '';
    const sheets = (text: string) => text.split(/^## /m).slice(1);
    // This writer put the parts of Sheet1 and Sheet2 last: the cut took them.
    expect(sheets(markdown).map((sheet) => sheet.split('\n')[0])).toEqual(sheets(intact).map((sheet) => sheet.split('\n')[0]));
    expect(sheets(markdown).slice(0, 2)).toEqual(['Sheet1\n\n(missing: its part is not in the file)\n\n', 'Sheet2\n\n(missing: its part is not in the file)\n\n']);
    expect(sheets(markdown).slice(2)).toEqual(sheets(intact).slice(2));
    expect(cut.warning).toMatch(/^The file was cut short \(an Excel workbook \(\.xlsx\) whose zip directory, at its end, is missing\)/);
    expect(cut.warning).toContain('Sheet(s) "Sheet1", "Sheet2": not in the file (xl/worksheets/sheet1.xml, xl/worksheets/sheet2.xml); left empty.');
  });

  it('a Word document cut before its styles: its tables read without the table styles they name', async () => {
    const bytes = readCorpusBytes('docx/word_tables.docx');
    const intact = await parse('word_tables.docx', bytes);
    const cut = await parse('word_tables.docx', cutInside(bytes, 'word/styles.xml'));
    expect(cut.warning).toMatch(CUT_SHORT);
    expect(cut.markdown).toBe(intact.markdown);
  });

  it('an OpenDocument spreadsheet cut in its manifest (LibreOffice writes it last): read as the intact file', async () => {
    const bytes = readCorpusBytes('ods/merged_cells.ods');
    const cut = await parse('merged_cells.ods', cutInside(bytes, 'META-INF/manifest.xml'));
    expect(cut.markdown).toBe((await parse('merged_cells.ods', bytes)).markdown);
    expect(cut.warning).toMatch(CUT_SHORT);
  });

  // The deck stores a workbook for its chart, a zip of its own: cut inside the deck's directory, the last end record
  // in the file is the workbook's, which points at no directory of the deck's.
  it('a deck cut inside its directory, after the workbook stored in it: read as the intact file', async () => {
    const bytes = readCorpusBytes('pptx/pptx_chart.pptx');
    const cut = bytes.subarray(0, Math.floor(bytes.length * 0.995));
    expect(readZipDirectory(cut)?.problem).toBe('damaged');
    const read = await parse('pptx_chart.pptx', cut);
    expect(read.markdown).toBe((await parse('pptx_chart.pptx', bytes)).markdown);
    expect(read.warning).toMatch(CUT_SHORT);
  });

  it('a workbook cut in its shared strings keeps its numbers, its cells of text left empty, and says so', async () => {
    const bytes = readCorpusBytes('xlsx/2023-half-year-analyses-by-segment.xlsx');
    const intact = (await parse('segments.xlsx', bytes)).markdown ?? '';
    const cut = await parse('segments.xlsx', cutInside(bytes, 'xl/sharedStrings.xml'));
    const row = '| 12,553 | 2,713 | 2,632 | (81) | (29) | (44) | (337) |';
    expect(intact).toContain('12,553 | 2,713 | 2,632 | (81) | (29) | (44) | (337)');
    expect(cut.markdown).toContain(row);
    expect(cut.markdown).not.toContain('Analyses by segment');
    expect(cut.warning).toContain("The workbook's shared strings (xl/sharedStrings.xml) are not in the file: its cells of text are left empty.");
  });

  it('a package cut inside its first part still fails, saying what it is', async () => {
    const bytes = readCorpusBytes('docx/word_tables.docx');
    const error = await failure('word_tables.docx', bytes.subarray(0, 200));
    expect(error.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(error.message).toMatch(/^the file is damaged or truncated: it is a zip package cut short/);
  });

  it('an EPUB cut before its package document (written last): its chapters read in the order they are stored', async () => {
    const bytes = readCorpusBytes('epub/winter-sports.epub');
    const intact = (await parse('winter-sports.epub', bytes)).markdown ?? '';
    const cut = await parse('winter-sports.epub', cutInside(bytes, 'OEBPS/content.opf'));
    expect(cut.warning).toContain(
      "Its package document OEBPS/content.opf was lost: its chapters are read in the order they are stored, without the book's metadata.",
    );
    // Every chapter was stored before it, in reading order: the text is the intact book's, the heading its
    // metadata's title gave aside.
    const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
    expect(words(cut.markdown ?? '')).toBeGreaterThan(0.95 * words(intact));
    expect(cut.markdown).toContain('This ebook is for the use of anyone anywhere in the United States');
  });

  it('an EPUB whose package document is missing but was not cut short still fails, naming it', async () => {
    const parts = unzipSync(readCorpusBytes('epub/winter-sports.epub'));
    delete parts['OEBPS/content.opf'];
    const error = await failure('winter-sports.epub', zipSync(parts));
    expect(error.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(error.message).toMatch(/package document OEBPS\/content\.opf, which is not in the zip/);
  });
});

describe('repairCutZip', () => {
  it('finds the parts written with data descriptors by where their deflate streams end', () => {
    const bytes = readCorpusBytes('odt/text_document_03.odt');
    const intact = readZipDirectory(bytes)!;
    expect(intact.entries.some((entry) => (entry.flags & 0x08) !== 0)).toBe(true);
    const repaired = repairCutZip(withoutEnd(bytes))!;
    const directory = readZipDirectory(repaired.bytes)!;
    expect(directory.problem).toBeUndefined();
    expect(directory.entries.map((entry) => [entry.name, entry.compressedSize, entry.uncompressedSize])).toEqual(
      intact.entries.map((entry) => [entry.name, entry.compressedSize, entry.uncompressedSize]),
    );
    // Any zip reader opens it: every part inflates, its CRC checked.
    expect(Object.keys(unzipSync(repaired.bytes))).toEqual(intact.entries.map((entry) => entry.name));
  });

  it('has nothing to repair when no part is whole', () => {
    expect(repairCutZip(readCorpusBytes('docx/word_tables.docx').subarray(0, 100))).toBeNull();
  });
});

describe('an Excel package whose content types do not match its parts', () => {
  it('a part they declare is missing (the styles): read without it', async () => {
    const parts = unzipSync(readCorpusBytes('xlsx/2023-half-year-analyses-by-segment.xlsx'));
    delete parts['xl/styles.xml'];
    expect((await parse('segments.xlsx', zipSync(parts))).markdown).toContain('3\\. Analyses by segment');
  });

  it('they are missing: each part is declared by where Excel puts it', async () => {
    const bytes = readCorpusBytes('xlsx/xlsx_01.xlsx');
    const parts = unzipSync(bytes);
    delete parts['[Content_Types].xml'];
    const intact = await parse('xlsx_01.xlsx', bytes);
    expect((await parse('xlsx_01.xlsx', zipSync(parts))).markdown).toBe(intact.markdown);
  });
});
