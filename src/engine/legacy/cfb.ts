/**
 * A reader for OLE2 compound files (Microsoft's Compound File Binary format, [MS-CFB]): the container of Word
 * 97-2003, PowerPoint 97-2003 and Excel 97-2003 files. A compound file is a little FAT file system: fixed-size
 * sectors chained by a File Allocation Table (whose own sectors are listed by the header and the DIFAT chain), a
 * directory of storages and streams kept as red-black trees, and a "mini stream" holding small streams in 64-byte
 * sectors chained by the mini FAT.
 *
 * Everything in the file is untrusted: every chain is followed at most once per sector (a cycle or a sector outside
 * the file is an error, not a hang), the directory tree is walked without recursion and each entry visited once, and
 * a stream longer than its chain is refused. Damage is reported as CORRUPT_DOCUMENT "damaged OLE2 container: ...".
 */
import { EngineError } from '../engine-error.js';
import { readU16, readU32 } from './bytes.js';

const SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const HEADER_SIZE = 512;
const DIRECTORY_ENTRY_SIZE = 128;
const HEADER_DIFAT_ENTRIES = 109;
/** Sector numbers from 0xFFFFFFFA up are markers: end of chain, free, FAT or DIFAT sector. */
const MAX_REGULAR_SECTOR = 0xfffffff9;
const END_OF_CHAIN = 0xfffffffe;
const FREE_SECTOR = 0xffffffff;
const NO_STREAM = 0xffffffff;

const MAX_STORAGE_DEPTH = 32;

const TYPE_STORAGE = 1;
const TYPE_STREAM = 2;
const TYPE_ROOT = 5;

export interface CfbEntry {
  /** The entry's path from the root, storages joined by `/` ("WordDocument", "ObjectPool/_123/\u0001Ole"). */
  path: string;
  name: string;
  kind: 'storage' | 'stream';
  size: number;
}

export interface CompoundFile {
  /** Every storage and stream below the root, parents before children. */
  entries: CfbEntry[];
  /** True when a stream with this path exists (names compare case-insensitively, as in the format). */
  has(path: string): boolean;
  /** The bytes of a stream, or null when there is no such stream. Throws CORRUPT_DOCUMENT when its chain is damaged. */
  read(path: string): Uint8Array | null;
}

interface DirectoryEntry {
  name: string;
  type: number;
  left: number;
  right: number;
  child: number;
  start: number;
  size: number;
}

export function isCompoundFile(bytes: Uint8Array): boolean {
  return bytes.length >= SIGNATURE.length && SIGNATURE.every((byte, index) => bytes[index] === byte);
}

export function damaged(cause: string): EngineError {
  return new EngineError('CORRUPT_DOCUMENT', `damaged OLE2 container: ${cause}`);
}

/** Opens a compound file: header, FAT, directory and mini FAT are read now; streams when asked for. */
export function openCompoundFile(bytes: Uint8Array): CompoundFile {
  if (!isCompoundFile(bytes)) throw new EngineError('CORRUPT_DOCUMENT', 'not an OLE2 compound file: the signature is missing');
  if (bytes.length < HEADER_SIZE) throw damaged(`the file is ${bytes.length} bytes, shorter than the 512-byte header`);
  const sectorShift = readU16(bytes, 0x1e);
  if (sectorShift !== 9 && sectorShift !== 12) throw damaged(`unsupported sector size 2^${sectorShift}`);
  const miniSectorShift = readU16(bytes, 0x20);
  if (miniSectorShift !== 6) throw damaged(`unsupported mini sector size 2^${miniSectorShift}`);
  const sectorSize = 1 << sectorShift;
  const miniSectorSize = 1 << miniSectorShift;
  const miniStreamCutoff = readU32(bytes, 0x38);
  // Sectors that exist in the file (a last sector cut short is still readable up to the end of the file).
  const sectorCount = Math.ceil((bytes.length - sectorSize) / sectorSize);
  const sectorOffset = (sector: number) => (sector + 1) * sectorSize;

  const fat = readFat(bytes, sectorSize, sectorCount);
  const sectorChain = (start: number, what: string): number[] => followChain(start, fat, sectorCount, what);
  /** The first `length` bytes of a chain; `whole` chains (directory, mini FAT) may end with the file's last bytes. */
  const readSectors = (chain: number[], length: number, whole = false): Uint8Array => {
    const out = new Uint8Array(length);
    let written = 0;
    for (const sector of chain) {
      if (written >= length) break;
      const begin = sectorOffset(sector);
      const take = Math.min(sectorSize, length - written, bytes.length - begin);
      if (take <= 0) break;
      out.set(bytes.subarray(begin, begin + take), written);
      written += take;
    }
    if (whole) return out.subarray(0, written);
    if (written < length) throw damaged(`a stream ends ${length - written} bytes early (file truncated?)`);
    return out;
  };

  const directoryChain = sectorChain(readU32(bytes, 0x30), 'the directory');
  const directory = readDirectory(readSectors(directoryChain, directoryChain.length * sectorSize, true));
  const root = directory[0];
  if (root === undefined || root.type !== TYPE_ROOT) throw damaged('the directory has no root entry');

  const miniFatStart = readU32(bytes, 0x3c);
  const miniFatChain = miniFatStart > MAX_REGULAR_SECTOR ? [] : sectorChain(miniFatStart, 'the mini FAT');
  const miniFat = u32Array(readSectors(miniFatChain, miniFatChain.length * sectorSize, true));
  let miniStream: Uint8Array | null = null;
  const loadMiniStream = (): Uint8Array => {
    if (miniStream === null) {
      const chain = root.start > MAX_REGULAR_SECTOR ? [] : sectorChain(root.start, 'the mini stream');
      if (root.size > chain.length * sectorSize) throw damaged('the mini stream is longer than its sector chain');
      miniStream = readSectors(chain, root.size);
    }
    return miniStream;
  };

  const entries: CfbEntry[] = [];
  const streams = new Map<string, DirectoryEntry>();
  walkTree(directory, root.child, '', (entry, path) => {
    const kind = entry.type === TYPE_STORAGE ? 'storage' : 'stream';
    entries.push({ path, name: entry.name, kind, size: entry.size });
    if (kind === 'stream') streams.set(path.toLowerCase(), entry);
  });

  return {
    entries,
    has: (path) => streams.has(path.toLowerCase()),
    read: (path) => {
      const entry = streams.get(path.toLowerCase());
      if (entry === undefined) return null;
      if (entry.size === 0) return new Uint8Array(0);
      if (entry.size < miniStreamCutoff) {
        const mini = loadMiniStream();
        const miniCount = Math.ceil(mini.length / miniSectorSize);
        const chain = followChain(entry.start, miniFat, miniCount, `stream "${entry.name}"`);
        if (entry.size > chain.length * miniSectorSize) throw damaged(`stream "${entry.name}" is longer than its mini sector chain`);
        const out = new Uint8Array(entry.size);
        let written = 0;
        for (const sector of chain) {
          const begin = sector * miniSectorSize;
          const take = Math.min(miniSectorSize, entry.size - written, mini.length - begin);
          if (take <= 0) break;
          out.set(mini.subarray(begin, begin + take), written);
          written += take;
        }
        if (written < entry.size) throw damaged(`stream "${entry.name}" ends early in the mini stream`);
        return out;
      }
      const chain = sectorChain(entry.start, `stream "${entry.name}"`);
      if (entry.size > chain.length * sectorSize) throw damaged(`stream "${entry.name}" is longer than its sector chain`);
      return readSectors(chain, entry.size);
    },
  };

  function u32Array(raw: Uint8Array): number[] {
    const values: number[] = [];
    for (let at = 0; at + 4 <= raw.length; at += 4) values.push(readU32(raw, at));
    return values;
  }
}

/** The FAT: its sectors are the header's 109 DIFAT entries, then those of the DIFAT sector chain. */
function readFat(bytes: Uint8Array, sectorSize: number, sectorCount: number): number[] {
  const fatSectors: number[] = [];
  for (let index = 0; index < HEADER_DIFAT_ENTRIES; index += 1) {
    const sector = readU32(bytes, 0x4c + index * 4);
    if (sector > MAX_REGULAR_SECTOR) break;
    fatSectors.push(sector);
  }
  const perDifat = sectorSize / 4 - 1;
  const seen = new Set<number>();
  let difat = readU32(bytes, 0x44);
  while (difat <= MAX_REGULAR_SECTOR) {
    if (difat >= sectorCount) throw damaged(`DIFAT sector ${difat} is outside the file`);
    if (seen.has(difat)) throw damaged('the DIFAT chain loops');
    seen.add(difat);
    const base = (difat + 1) * sectorSize;
    for (let index = 0; index < perDifat; index += 1) {
      const sector = readU32(bytes, base + index * 4);
      if (sector <= MAX_REGULAR_SECTOR) fatSectors.push(sector);
    }
    difat = readU32(bytes, base + perDifat * 4);
  }
  if (fatSectors.length === 0) throw damaged('the header lists no FAT sector');
  const fat: number[] = [];
  const perFat = sectorSize / 4;
  // More FAT entries than the file has sectors are never needed (a hostile header could list the same sector often).
  const wanted = Math.min(fatSectors.length * perFat, sectorCount + perFat);
  for (const sector of fatSectors) {
    if (fat.length >= wanted) break;
    if (sector >= sectorCount) throw damaged(`FAT sector ${sector} is outside the file`);
    const base = (sector + 1) * sectorSize;
    for (let index = 0; index < perFat; index += 1) fat.push(base + index * 4 + 4 <= bytes.length ? readU32(bytes, base + index * 4) : FREE_SECTOR);
  }
  return fat;
}

/** The sectors of a chain, in order. Each sector at most once; every one must exist. */
function followChain(start: number, table: readonly number[], limit: number, what: string): number[] {
  const chain: number[] = [];
  const seen = new Set<number>();
  let sector = start;
  while (sector !== END_OF_CHAIN) {
    if (sector > MAX_REGULAR_SECTOR) throw damaged(`the sector chain of ${what} hits a free or reserved sector`);
    if (sector >= limit) throw damaged(`the sector chain of ${what} points outside the file (sector ${sector})`);
    if (seen.has(sector)) throw damaged(`the sector chain of ${what} loops`);
    seen.add(sector);
    chain.push(sector);
    const next = table[sector];
    if (next === undefined) throw damaged(`the sector chain of ${what} runs past the allocation table`);
    sector = next;
  }
  return chain;
}

function readDirectory(raw: Uint8Array): DirectoryEntry[] {
  const entries: DirectoryEntry[] = [];
  for (let at = 0; at + DIRECTORY_ENTRY_SIZE <= raw.length; at += DIRECTORY_ENTRY_SIZE) {
    const nameLength = readU16(raw, at + 0x40);
    let name = '';
    for (let offset = 0; offset + 2 < Math.min(nameLength, 64); offset += 2) name += String.fromCharCode(readU16(raw, at + offset));
    entries.push({
      name,
      type: raw[at + 0x42] ?? 0,
      left: readU32(raw, at + 0x44),
      right: readU32(raw, at + 0x48),
      child: readU32(raw, at + 0x4c),
      start: readU32(raw, at + 0x74),
      // Version 3 files keep only the low 32 bits; the high ones may hold garbage and 50 MiB inputs never need them.
      size: readU32(raw, at + 0x78),
    });
  }
  return entries;
}

/** Visits every entry under `first` (siblings in tree order, storages before their children), each at most once. */
function walkTree(
  directory: readonly DirectoryEntry[],
  first: number,
  prefix: string,
  visit: (entry: DirectoryEntry, path: string) => void,
): void {
  const visited = new Set<number>([0]);
  // A storage's children are queued after all its siblings: paths stay right without recursion.
  const storages: { id: number; prefix: string; depth: number }[] = [{ id: first, prefix, depth: 1 }];
  // An index, not shift(): a hostile directory of 400,000 storages must not make the walk quadratic.
  for (let next = 0; next < storages.length; next += 1) {
    const { id: top, prefix: base, depth } = storages[next] as { id: number; prefix: string; depth: number };
    const stack = [top];
    while (stack.length > 0) {
      const id = stack.pop() as number;
      if (id === NO_STREAM) continue;
      const entry = directory[id];
      if (entry === undefined) throw damaged(`directory entry ${id} is outside the directory`);
      if (visited.has(id)) throw damaged('the directory tree loops');
      visited.add(id);
      stack.push(entry.right, entry.left);
      if (entry.type !== TYPE_STORAGE && entry.type !== TYPE_STREAM) continue;
      const path = base === '' ? entry.name : `${base}/${entry.name}`;
      visit(entry, path);
      // Storages nested deeper than any Office file nests them are listed but not entered (paths would grow quadratically).
      if (entry.type === TYPE_STORAGE && depth < MAX_STORAGE_DEPTH) storages.push({ id: entry.child, prefix: path, depth: depth + 1 });
    }
  }
}
