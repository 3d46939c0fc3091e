/**
 * SheetJS inflates zip entries with an inflater of its own that never stops at the end of its input (bits past it
 * read as zeros: endless empty stored blocks, or one symbol repeated for ever) and reads the reserved block type as a
 * dynamic one: a damaged deflate stream keeps it busy for minutes or for ever (two .xlsx files of a mutation
 * campaign: test/fixtures/malformed/). ZipArchive.check has zlib vouch for every stream SheetJS will inflate, every
 * directory record and with the local header's method, before SheetJS sees the bytes. Each package below holds
 * one of the smallest streams that loop (beside a workbook part, so that the sniffer takes it for a workbook): it
 * must be refused, not handed on.
 */
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseOptionsSchema } from '../../../src/contract/options.js';
import { parseDocument } from '../../../src/engine/engine.js';

interface RawEntry {
  name: string;
  /** The entry's bytes as stored (compressed when `method` is 8). */
  data: Uint8Array;
  method: number;
  size: number;
  /** The method written in the local header, when it should differ from the directory's. */
  localMethod?: number;
}

/** A zip written byte by byte, so that it can hold what zip writers refuse to write (a name twice, lying headers). */
function rawZip(entries: readonly RawEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.localMethod ?? entry.method, 8);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, Buffer.from(entry.data));
    centrals.push(central, name);
    offset += 30 + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>';

function deflated(name: string, text: string): RawEntry {
  const bytes = Buffer.from(text);
  return { name, data: deflateRawSync(bytes), method: 8, size: bytes.length };
}

const WORKBOOK = deflated('xl/workbook.xml', '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets/></workbook>');

const options = parseOptionsSchema.parse({});

async function refusal(bytes: Uint8Array): Promise<unknown> {
  return parseDocument({ bytes, fileName: 'book.xlsx', options }).then(
    () => new Error('converted'),
    (error: unknown) => error,
  );
}

describe('the deflate streams SheetJS would inflate itself', () => {
  it('a stream cut short (one empty non-final block, then nothing) is CORRUPT_DOCUMENT, not handed to SheetJS', async () => {
    // 0x02 0x00: a fixed-Huffman block, not the last, holding only its end code. SheetJS reads on past the end.
    const bytes = rawZip([{ name: '[Content_Types].xml', data: new Uint8Array([0x02, 0x00]), method: 8, size: 100 }, WORKBOOK]);
    expect(await refusal(bytes)).toMatchObject({
      apiCode: 'CORRUPT_DOCUMENT',
      message: expect.stringMatching(/whose part \[Content_Types\]\.xml cannot be inflated \(unexpected end of file\)/),
    });
  });

  it('a block of the reserved type 3 is CORRUPT_DOCUMENT', async () => {
    const bytes = rawZip([{ name: '[Content_Types].xml', data: new Uint8Array([0x07, 0xff, 0xff, 0xff]), method: 8, size: 100 }, WORKBOOK]);
    expect(await refusal(bytes)).toMatchObject({ apiCode: 'CORRUPT_DOCUMENT', message: expect.stringMatching(/invalid block type/) });
  });

  it('a name listed twice: the record other readers drop is checked too', async () => {
    const bytes = rawZip([
      { name: 'xl/workbook.xml', data: new Uint8Array([0x02, 0x00]), method: 8, size: 100 },
      deflated('[Content_Types].xml', CONTENT_TYPES),
      WORKBOOK,
    ]);
    expect(await refusal(bytes)).toMatchObject({ apiCode: 'CORRUPT_DOCUMENT', message: expect.stringMatching(/xl\/workbook\.xml cannot be inflated/) });
  });

  it('a local header that says deflate where the directory says stored is CORRUPT_DOCUMENT', async () => {
    const stored = Buffer.from(CONTENT_TYPES);
    const bytes = rawZip([{ name: '[Content_Types].xml', data: stored, method: 0, size: stored.length, localMethod: 8 }, WORKBOOK]);
    expect(await refusal(bytes)).toMatchObject({
      apiCode: 'CORRUPT_DOCUMENT',
      message: expect.stringMatching(/its local header gives compression method 8, the directory 0/),
    });
  });
});
