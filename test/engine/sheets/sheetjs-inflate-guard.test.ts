/**
 * SheetJS inflates zip entries with an inflater of its own that checks nothing: it reads on past the end of its input
 * (bits past it read as zeros), and its input is the rest of the file from the entry's first byte, not the entry; a
 * block ends only when its literal/length table yields the end-of-block symbol (256), and a block of the reserved
 * type 3 is read as a dynamic one. A damaged stream can so keep it busy for ever: the two .xlsx files of a mutation
 * campaign (test/fixtures/malformed/, README "Why the two workbooks hung") each reach a block whose table has no
 * end-of-block at all. ZipArchive.check has zlib inflate every stream SheetJS will inflate, every directory record
 * and with the local header's method, before SheetJS sees the bytes. Each package below (a workbook part beside it,
 * so that the sniffer takes it for a workbook) holds a stream on which SheetJS 0.20.3's XLSX.read, given the same
 * package, was seen not to return within 5 s (test/fixtures/malformed/sheetjs-inflate-loop.mjs shows the
 * inflater alone): it must be refused, in one attempt, naming the part, not handed on.
 */
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseOptionsSchema } from '../../../src/contract/options.js';
import { engineFailureAnswer } from '../../../src/engine/engine-error.js';
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

/** What parsing the package ends in; a refusal must be one the contract does not retry (one attempt). */
async function refusal(bytes: Uint8Array): Promise<unknown> {
  const error = await parseDocument({ bytes, fileName: 'book.xlsx', options }).then(
    () => new Error('converted'),
    (failure: unknown) => failure,
  );
  expect(engineFailureAnswer(error, 'book.xlsx')).toMatchObject({ retryable: false });
  return error;
}

describe('the deflate streams SheetJS would inflate itself', () => {
  it('a stream cut short (one empty non-final block, then nothing) is CORRUPT_DOCUMENT, not handed to SheetJS', async () => {
    // 0x02 0x00: a fixed-Huffman block, not the last, holding only its end code. SheetJS reads on through the rest of
    // the file, then zero bits past its end: empty stored blocks, none the last, for ever.
    const bytes = rawZip([{ name: '[Content_Types].xml', data: new Uint8Array([0x02, 0x00]), method: 8, size: 100 }, WORKBOOK]);
    expect(await refusal(bytes)).toMatchObject({
      apiCode: 'CORRUPT_DOCUMENT',
      message: expect.stringMatching(/whose part \[Content_Types\]\.xml cannot be inflated \(unexpected end of file\)/),
    });
  });

  // A final dynamic block whose literal/length code holds literal 0 (8 bits) and no end-of-block: HLIT 257, HDIST 1,
  // HCLEN 5, code-length code {8, 18} of 1 bit each, then 8, 138 zeros, 118 zeros, 8. SheetJS never leaves the block.
  const NO_END_OF_BLOCK = [0x05, 0x20, 0x80, 0x20, 0xfe, 0xaf, 0x01];

  it('a dynamic block with no end-of-block code is CORRUPT_DOCUMENT, not handed to SheetJS', async () => {
    const bytes = rawZip([{ name: '[Content_Types].xml', data: new Uint8Array(NO_END_OF_BLOCK), method: 8, size: 100 }, WORKBOOK]);
    expect(await refusal(bytes)).toMatchObject({
      apiCode: 'CORRUPT_DOCUMENT',
      message: expect.stringMatching(/whose part \[Content_Types\]\.xml cannot be inflated \(invalid code -- missing end-of-block\)/),
    });
  });

  it('the same block under the reserved type 3 (the construct of both campaign workbooks) is CORRUPT_DOCUMENT', async () => {
    // SheetJS reads type 3 as dynamic and loops as above; zlib stops at the block type.
    const bytes = rawZip([{ name: '[Content_Types].xml', data: new Uint8Array([0x07, ...NO_END_OF_BLOCK.slice(1)]), method: 8, size: 100 }, WORKBOOK]);
    expect(await refusal(bytes)).toMatchObject({
      apiCode: 'CORRUPT_DOCUMENT',
      message: expect.stringMatching(/whose part \[Content_Types\]\.xml cannot be inflated \(invalid block type\)/),
    });
  });

  it('a name listed twice: the record other readers drop (the stream cut short) is checked too', async () => {
    const bytes = rawZip([
      { name: 'xl/workbook.xml', data: new Uint8Array([0x02, 0x00]), method: 8, size: 100 },
      deflated('[Content_Types].xml', CONTENT_TYPES),
      WORKBOOK,
    ]);
    expect(await refusal(bytes)).toMatchObject({ apiCode: 'CORRUPT_DOCUMENT', message: expect.stringMatching(/xl\/workbook\.xml cannot be inflated/) });
  });

  it('a local header that says deflate where the directory says stored (SheetJS inflates the XML text) is CORRUPT_DOCUMENT', async () => {
    const stored = Buffer.from(CONTENT_TYPES);
    const bytes = rawZip([{ name: '[Content_Types].xml', data: stored, method: 0, size: stored.length, localMethod: 8 }, WORKBOOK]);
    expect(await refusal(bytes)).toMatchObject({
      apiCode: 'CORRUPT_DOCUMENT',
      message: expect.stringMatching(/its local header gives compression method 8, the directory 0/),
    });
  });
});
