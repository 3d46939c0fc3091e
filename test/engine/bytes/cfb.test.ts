/**
 * The one OLE2 compound-file reader: streams of real files (FAT and mini stream), and damaged containers built here
 * (sector chains that loop or leave the file, directory trees that loop, streams longer than their chains), each
 * refused as CORRUPT_DOCUMENT with its cause rather than hanging or reading garbage.
 */
import { describe, expect, it } from 'vitest';
import { openCompoundFile } from '../../../src/engine/bytes/cfb.js';
import { corpusBytes } from '../html/helpers.js';
import { writeCfb } from '../legacy/make-cfb.js';

function failure(run: () => unknown): { apiCode: string; message: string } {
  try {
    run();
  } catch (error) {
    return error as { apiCode: string; message: string };
  }
  throw new Error('no error');
}

const bytes = (length: number, seed: number) => Uint8Array.from({ length }, (_, index) => (index * 7 + seed) & 0xff);

describe('real files', () => {
  it('lists and reads the streams of a Word document (regular and mini-stream streams)', () => {
    const file = openCompoundFile(corpusBytes('doc/legacy_sample.doc'));
    expect(file.entries.map((entry) => entry.path).sort()).toEqual(
      ['1Table', 'Data', 'WordDocument', '\u0001CompObj', '\u0005DocumentSummaryInformation', '\u0005SummaryInformation'].sort(),
    );
    const word = file.read('WordDocument');
    expect(word?.length).toBe(7729);
    expect([word?.[0], word?.[1]]).toEqual([0xec, 0xa5]);
    // 114 bytes: kept in the mini stream.
    const compObj = new TextDecoder('latin1').decode(file.read('\u0001CompObj') ?? new Uint8Array());
    expect(compObj).toContain('Microsoft Word 97-2003 Document');
    expect(file.read('nothing here')).toBeNull();
    expect(file.has('worddocument')).toBe(true);
  });
});

describe('built files', () => {
  it('reads back what was written, across several sectors', () => {
    const first = bytes(1500, 1);
    const second = bytes(10, 2);
    const file = openCompoundFile(writeCfb([{ name: 'First', data: first }, { name: 'Second', data: second }, { name: 'Empty', data: new Uint8Array() }]).bytes);
    expect(file.read('First')).toEqual(first);
    expect(file.read('Second')).toEqual(second);
    expect(file.read('Empty')).toEqual(new Uint8Array());
  });

  it('refuses a sector chain that loops', () => {
    const layout = writeCfb([{ name: 'Stream', data: bytes(2000, 3) }]);
    const start = layout.firstSector.get('Stream') as number;
    new DataView(layout.bytes.buffer).setUint32(layout.fatEntryOffset(start + 1), start, true);
    const error = failure(() => openCompoundFile(layout.bytes).read('Stream'));
    expect(error.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(error.message).toBe('damaged OLE2 container: the sector chain of stream "Stream" loops');
  });

  it('refuses a sector chain that leaves the file', () => {
    const layout = writeCfb([{ name: 'Stream', data: bytes(2000, 4) }]);
    const start = layout.firstSector.get('Stream') as number;
    new DataView(layout.bytes.buffer).setUint32(layout.fatEntryOffset(start), 5000, true);
    const error = failure(() => openCompoundFile(layout.bytes).read('Stream'));
    expect(error.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(error.message).toBe('damaged OLE2 container: cut short: the sector chain of stream "Stream" reaches sector 5000, beyond the end of the file');
  });

  it('refuses a stream longer than its chain', () => {
    const layout = writeCfb([{ name: 'Stream', data: bytes(600, 5) }]);
    new DataView(layout.bytes.buffer).setUint32(layout.directoryEntryOffset(1) + 0x78, 5000, true);
    expect(failure(() => openCompoundFile(layout.bytes).read('Stream')).message).toMatch(/longer than its sector chain/);
  });

  it('refuses a directory tree that loops', () => {
    const layout = writeCfb([{ name: 'A', data: bytes(10, 6) }, { name: 'B', data: bytes(10, 7) }]);
    // B's right sibling is A again.
    new DataView(layout.bytes.buffer).setUint32(layout.directoryEntryOffset(2) + 0x48, 1, true);
    expect(failure(() => openCompoundFile(layout.bytes)).message).toBe('damaged OLE2 container: the directory tree loops');
  });

  it('refuses a directory chain that loops and a FAT outside the file', () => {
    const looping = writeCfb([{ name: 'A', data: bytes(10, 8) }]);
    const directory = new DataView(looping.bytes.buffer).getUint32(0x30, true);
    new DataView(looping.bytes.buffer).setUint32(looping.fatEntryOffset(directory), directory, true);
    expect(failure(() => openCompoundFile(looping.bytes)).message).toBe('damaged OLE2 container: the sector chain of the directory loops');

    const farFat = writeCfb([{ name: 'A', data: bytes(10, 9) }]);
    new DataView(farFat.bytes.buffer).setUint32(0x4c, 999_999, true);
    expect(failure(() => openCompoundFile(farFat.bytes)).message).toMatch(/FAT sector 999999 lies beyond the end of the file/);
  });

  it('refuses a header cut short and an unknown sector size', () => {
    const layout = writeCfb([{ name: 'A', data: bytes(10, 10) }]);
    expect(failure(() => openCompoundFile(layout.bytes.slice(0, 300))).message).toMatch(/shorter than the 512-byte header/);
    const odd = layout.bytes.slice();
    odd[0x1e] = 15;
    expect(failure(() => openCompoundFile(odd)).message).toMatch(/unsupported sector size/);
  });
});
