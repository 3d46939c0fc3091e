import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { recoverCutWorkbook } from '../../../src/engine/bytes/cfb-cut-workbook.js';
import { parseDocument } from '../../../src/engine/engine.js';
import { corpusBytes, options } from '../html/helpers.js';

const CUT = 'The file was cut short (an Excel 97-2003 workbook whose allocation table or directory, at its end, is missing): ';
const parse = (bytes: Uint8Array) => parseDocument({ bytes, fileName: 'cut.xls', options: options({ parsers: [{ type: 'pdf', blocks: true }] }) });

/** The Markdown of each sheet, by its heading. */
function sheets(markdown: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (markdown ?? '').split(/^## /m).slice(1)) {
    const [name = '', ...rest] = part.split('\n');
    out.set(name, rest.join('\n').trim());
  }
  return out;
}

async function refusal(bytes: Uint8Array): Promise<unknown> {
  return parse(bytes).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('an Excel 97-2003 workbook cut short', () => {
  // Written by Excel: the allocation table in the first sector, the directory in the last ones.
  const excel = corpusBytes('xls/tests-example.xls');

  it('reads one cut after its sheets as if whole', async () => {
    const intact = await parse(excel);
    const cut = await parse(excel.subarray(0, Math.floor(excel.length * 0.95)));
    expect(cut.markdown).toBe(intact.markdown);
    expect(cut.metadata).toEqual(intact.metadata);
    expect(cut.markdown).toContain('| TF | Bagpipes are awesome. | true |');
    expect(cut.warning).toBe(`${CUT}its sheets "Example Test", "Format Abbr.", "Readme" were read whole; its document properties (title, author) are not read.`);
  });

  it('reads the sheets before a cut inside one whole, that one up to the cut, and marks those after it lost', async () => {
    const intact = sheets((await parse(excel)).markdown);
    const data = await parse(excel.subarray(0, 11_000));
    const read = sheets(data.markdown);
    expect([...read.keys()]).toEqual(['Example Test', 'Format Abbr.', 'Readme']);
    expect(read.get('Example Test')).toBe(intact.get('Example Test'));
    expect(read.get('Format Abbr.')).toBe('(cut short: the file ends before any of its cells)');
    expect(read.get('Readme')).toBe('(missing: the file was cut short before this sheet)');
    expect(data.blocks?.map((page) => page.status)).toEqual(['ok', 'partial', 'failed']);
    expect(data.warning).toBe(
      `${CUT}its sheet "Example Test" was read whole and "Format Abbr." up to the cut; "Readme", after the cut, is lost; its document properties (title, author) are not read.`,
    );
  });

  it('refuses one cut inside its globals, which hold its sheet list and strings', async () => {
    expect(await refusal(excel.subarray(0, 4096))).toMatchObject({
      apiCode: 'CORRUPT_DOCUMENT',
      message: 'the file is damaged or truncated: it is an Excel 97-2003 workbook (.xls) cut inside its globals, which hold its sheet list and shared strings',
    });
  });

  describe('written with its directory and allocation table first (SheetJS)', () => {
    const rows = (sheet: number) => [['Item', 'Count'], ...Array.from({ length: 150 }, (_, row) => [`S${sheet} item ${row + 1}`, (row + 1) * sheet])];
    const book = XLSX.utils.book_new();
    for (const sheet of [1, 2, 3]) XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows(sheet)), `Sheet ${sheet}`);
    const written = new Uint8Array(XLSX.write(book, { type: 'buffer', bookType: 'xls' }) as Buffer);
    const cfb = XLSX.CFB.read(written, { type: 'array' });
    const stream = XLSX.CFB.find(cfb, 'Workbook');
    const start = (stream as unknown as { start: number }).start;
    const sectors = Math.ceil((stream?.size ?? 0) / 512);
    const offset = (sector: number) => (sector + 1) * 512;
    /** Cut inside the second sheet: the Workbook stream is the file's last one. */
    const cutAt = offset(start) + Math.floor(((stream?.size ?? 0) * 3) / 5);

    const expectSheetsUpToTheCut = (markdown: string | undefined) => {
      const read = sheets(markdown);
      expect([...read.keys()]).toEqual(['Sheet 1', 'Sheet 2', 'Sheet 3']);
      expect(read.get('Sheet 1')).toContain('| S1 item 150 | 150 |');
      expect(read.get('Sheet 2')).toContain('| S2 item 1 | 2 |');
      expect(read.get('Sheet 2')).not.toContain('S2 item 150');
      expect(read.get('Sheet 3')).toBe('(missing: the file was cut short before this sheet)');
    };

    it('follows the allocation table, which survives the cut', async () => {
      const intact = sheets((await parse(written)).markdown);
      const data = await parse(written.subarray(0, cutAt));
      expectSheetsUpToTheCut(data.markdown);
      expect(sheets(data.markdown).get('Sheet 1')).toBe(intact.get('Sheet 1'));
      expect(data.warning).toMatch(/its sheet "Sheet 1" was read whole and "Sheet 2" up to the cut; "Sheet 3", after the cut, is lost/);
    });

    it('reads the stream in the order its allocation table chains it, not in the file order', async () => {
      // Two sectors of the stream trade places, and the table is chained to match: read in the file's order, its
      // records would be out of order.
      const moved = written.slice();
      const [a, b] = [start + 4, start + 5];
      moved.set(written.subarray(offset(b), offset(b) + 512), offset(a));
      moved.set(written.subarray(offset(a), offset(a) + 512), offset(b));
      const fatEntry = (sector: number) => offset(new DataView(moved.buffer).getUint32(0x4c, true)) + sector * 4;
      const view = new DataView(moved.buffer);
      view.setUint32(fatEntry(start + 3), b, true);
      view.setUint32(fatEntry(b), a, true);
      view.setUint32(fatEntry(a), start + 6, true);
      const cut = moved.subarray(0, cutAt);
      expectSheetsUpToTheCut((await parse(cut)).markdown);
      expect(recoverCutWorkbook(cut)).toMatchObject({ whole: ['Sheet 1'], cut: ['Sheet 2'], lost: ['Sheet 3'] });
    });

    it('reads the run of sectors from the workbook\'s start where the allocation table was lost', async () => {
      const lost = written.slice(0, cutAt);
      // The header's first FAT sector, as if written at the end: past the cut.
      new DataView(lost.buffer).setUint32(0x4c, start + sectors + 10, true);
      expectSheetsUpToTheCut((await parse(lost)).markdown);
    });

    it('names at most five sheets in each list of its warning', async () => {
      const many = XLSX.utils.book_new();
      for (let sheet = 1; sheet <= 9; sheet += 1) XLSX.utils.book_append_sheet(many, XLSX.utils.aoa_to_sheet(rows(sheet)), `Sheet ${sheet}`);
      const bytes = new Uint8Array(XLSX.write(many, { type: 'buffer', bookType: 'xls' }) as Buffer);
      const data = await parse(bytes.subarray(0, Math.floor(bytes.length * 0.2)));
      expect(data.warning).toMatch(/; "Sheet 3", "Sheet 4", "Sheet 5", "Sheet 6", "Sheet 7" and 2 more, after the cut, are lost;/);
      expect(sheets(data.markdown).get('Sheet 9')).toBe('(missing: the file was cut short before this sheet)');
    });

    it('refuses an encrypted one: its cells would read as garbage', async () => {
      const encrypted = written.slice(0, cutAt);
      // The globals' WINDOW1 record (0x003D) made a FILEPASS (0x002F): what an encrypted workbook has there.
      const globals = offset(start);
      let at = globals;
      while (new DataView(encrypted.buffer).getUint16(at, true) !== 0x003d) at += 4 + new DataView(encrypted.buffer).getUint16(at + 2, true);
      new DataView(encrypted.buffer).setUint16(at, 0x002f, true);
      expect(recoverCutWorkbook(encrypted)).toEqual({ unread: 'password-protected (encrypted), which the part lost is needed to read' });
      expect(await refusal(encrypted)).toMatchObject({
        apiCode: 'CORRUPT_DOCUMENT',
        message: 'the file is damaged or truncated: it is an Excel 97-2003 workbook (.xls) password-protected (encrypted), which the part lost is needed to read',
      });
    });
  });
});
