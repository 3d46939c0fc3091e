/**
 * A minimal OLE2 compound-file writer for tests: version 3, 512-byte sectors, one FAT sector (so at most 127 sectors
 * of data and directory, ~64 KiB), every stream in regular sectors (the mini stream cutoff is written as 0 so that
 * readers never look for a mini stream), directory entries chained through their right siblings. It also says
 * where it put things, so that tests can damage a file on purpose.
 */

export interface CfbLayout {
  bytes: Uint8Array;
  /** Byte offset of the FAT sector's entry for `sector`. */
  fatEntryOffset(sector: number): number;
  /** First sector of each stream, by name. */
  firstSector: Map<string, number>;
  /** Byte offset of directory entry `index` (0 is the root). */
  directoryEntryOffset(index: number): number;
  sectorOffset(sector: number): number;
}

const SECTOR = 512;
const END_OF_CHAIN = 0xfffffffe;
const FREE = 0xffffffff;
const FAT_SECTOR = 0xfffffffd;

export function writeCfb(streams: readonly { name: string; data: Uint8Array }[]): CfbLayout {
  const directorySectors = Math.ceil((streams.length + 1) / 4);
  const fat: number[] = [FAT_SECTOR];
  const chain = (count: number): number => {
    const first = fat.length;
    for (let index = 0; index < count; index += 1) fat.push(index === count - 1 ? END_OF_CHAIN : fat.length + 1);
    return first;
  };
  const directoryStart = chain(directorySectors);
  const firstSector = new Map<string, number>();
  const starts = streams.map((stream) => {
    const count = Math.ceil(stream.data.length / SECTOR);
    const first = count === 0 ? END_OF_CHAIN : chain(count);
    firstSector.set(stream.name, first);
    return first;
  });
  if (fat.length > SECTOR / 4) throw new Error('writeCfb: too much data for one FAT sector');
  const sectorCount = fat.length;
  const bytes = new Uint8Array(SECTOR * (sectorCount + 1));
  const view = new DataView(bytes.buffer);
  // Header.
  bytes.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], 0);
  view.setUint16(0x18, 0x003e, true);
  view.setUint16(0x1a, 0x0003, true);
  view.setUint16(0x1c, 0xfffe, true);
  view.setUint16(0x1e, 9, true);
  view.setUint16(0x20, 6, true);
  view.setUint32(0x2c, 1, true);
  view.setUint32(0x30, directoryStart, true);
  view.setUint32(0x38, 0, true);
  view.setUint32(0x3c, END_OF_CHAIN, true);
  view.setUint32(0x44, END_OF_CHAIN, true);
  for (let index = 0; index < 109; index += 1) view.setUint32(0x4c + index * 4, index === 0 ? 0 : FREE, true);
  const sectorOffset = (sector: number) => (sector + 1) * SECTOR;
  // FAT.
  for (let index = 0; index < SECTOR / 4; index += 1) view.setUint32(sectorOffset(0) + index * 4, fat[index] ?? FREE, true);
  // Directory.
  const entryOffset = (index: number) => sectorOffset(directoryStart + Math.floor(index / 4)) + (index % 4) * 128;
  const writeEntry = (index: number, name: string, type: number, child: number, right: number, start: number, size: number) => {
    const at = entryOffset(index);
    for (let char = 0; char < name.length; char += 1) view.setUint16(at + char * 2, name.charCodeAt(char), true);
    view.setUint16(at + 0x40, (name.length + 1) * 2, true);
    bytes[at + 0x42] = type;
    bytes[at + 0x43] = 1;
    view.setUint32(at + 0x44, FREE, true);
    view.setUint32(at + 0x48, right, true);
    view.setUint32(at + 0x4c, child, true);
    view.setUint32(at + 0x74, start, true);
    view.setUint32(at + 0x78, size, true);
  };
  for (let index = 0; index < directorySectors * 4; index += 1) {
    const at = entryOffset(index);
    view.setUint32(at + 0x44, FREE, true);
    view.setUint32(at + 0x48, FREE, true);
    view.setUint32(at + 0x4c, FREE, true);
  }
  writeEntry(0, 'Root Entry', 5, streams.length > 0 ? 1 : FREE, FREE, END_OF_CHAIN, 0);
  streams.forEach((stream, index) => {
    writeEntry(index + 1, stream.name, 2, FREE, index + 1 < streams.length ? index + 2 : FREE, starts[index] as number, stream.data.length);
    if (stream.data.length > 0) bytes.set(stream.data, sectorOffset(starts[index] as number));
  });
  return {
    bytes,
    fatEntryOffset: (sector) => sectorOffset(0) + sector * 4,
    firstSector,
    directoryEntryOffset: entryOffset,
    sectorOffset,
  };
}

/** Little-endian byte building. */
export class ByteWriter {
  private readonly chunks: number[] = [];

  get length(): number {
    return this.chunks.length;
  }

  u8(value: number): this {
    this.chunks.push(value & 0xff);
    return this;
  }

  u16(value: number): this {
    return this.u8(value).u8(value >>> 8);
  }

  u32(value: number): this {
    return this.u16(value & 0xffff).u16(value >>> 16);
  }

  bytes(values: ArrayLike<number>): this {
    for (let index = 0; index < values.length; index += 1) this.chunks.push((values[index] ?? 0) & 0xff);
    return this;
  }

  utf16(text: string): this {
    for (let index = 0; index < text.length; index += 1) this.u16(text.charCodeAt(index));
    return this;
  }

  latin1(text: string): this {
    for (let index = 0; index < text.length; index += 1) this.u8(text.charCodeAt(index));
    return this;
  }

  padTo(length: number): this {
    while (this.chunks.length < length) this.chunks.push(0);
    return this;
  }

  set32(at: number, value: number): this {
    for (let index = 0; index < 4; index += 1) this.chunks[at + index] = (value >>> (index * 8)) & 0xff;
    return this;
  }

  toBytes(): Uint8Array {
    return Uint8Array.from(this.chunks);
  }
}
