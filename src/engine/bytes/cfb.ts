/**
 * The engine's one reader of OLE2 compound files (Microsoft's Compound File Binary format, [MS-CFB]): the container
 * of Word, Excel and PowerPoint 97-2003 files, and the one Office wraps an encrypted OOXML package in. The sniffer
 * (sniff.ts) opens it to tell what a file holds by its stream names; the .doc and .ppt converters read its streams.
 *
 * A compound file is a little FAT file system: fixed-size sectors chained by a File Allocation Table (whose own
 * sectors are listed by the header and the DIFAT chain), a directory of storages and streams kept as red-black
 * trees, and a "mini stream" holding small streams in 64-byte sectors chained by the mini FAT.
 *
 * Everything in the file is untrusted, and these rules bound the work to the size of the file (there is no
 * compression, so nothing can grow beyond it):
 * - every chain is followed at most once per sector: a cycle, a free or reserved sector, or a sector outside the
 *   file is an error, not a hang;
 * - no more FAT entries are read than the file has sectors (a hostile header may list the same FAT sector often);
 * - the directory tree is walked without recursion, each entry visited once, storages entered at most
 *   MAX_STORAGE_DEPTH deep;
 * - a stream longer than its chain is refused.
 * Damage is CORRUPT_DOCUMENT "damaged OLE2 container: <cause>" (`DamagedCompoundFile`, whose `damage` is the cause).
 */
import { EngineError } from '../engine-error.js';
import { readU16, readU32, startsWith } from './binary.js';

const SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** [MS-CFB] 2.2: the header's size, and how many FAT sectors it lists itself (the DIFAT chain lists the rest). */
const HEADER = { bytes: 512, difatEntries: 109 } as const;
/**
 * [MS-CFB] 2.1: sector numbers up to MAXREGSECT are sectors; DIFSECT, FATSECT, ENDOFCHAIN and FREESECT (all above
 * it) are markers.
 */
const SECTOR = { MAXREGSECT: 0xfffffffa, ENDOFCHAIN: 0xfffffffe, FREESECT: 0xffffffff } as const;
/** [MS-CFB] 2.6: the size of a directory entry, its object types, and NOSTREAM (no sibling or child). */
const DIRECTORY = { entryBytes: 128, storage: 1, stream: 2, root: 5, NOSTREAM: 0xffffffff } as const;
/** Storages nested deeper than any Office file nests them are listed but not entered (paths would grow quadratically). */
const MAX_STORAGE_DEPTH = 32;

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
  /**
   * True when the allocation table links sectors beyond the end of the file: the file was cut short (a stream
   * whose chain crosses the end fails when it is read; the sniffer refuses the whole file).
   */
  cutShort: boolean;
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
  return startsWith(bytes, SIGNATURE);
}

/** A compound file whose structure is broken; `damage` says how ("the directory tree loops"). */
export class DamagedCompoundFile extends EngineError {
  constructor(readonly damage: string) {
    super('CORRUPT_DOCUMENT', `damaged OLE2 container: ${damage}`);
  }
}

function damaged(cause: string): DamagedCompoundFile {
  return new DamagedCompoundFile(cause);
}

/** Opens a compound file: header, FAT, directory and mini FAT are read now; streams when asked for. */
export function openCompoundFile(bytes: Uint8Array): CompoundFile {
  if (!isCompoundFile(bytes)) throw new EngineError('CORRUPT_DOCUMENT', 'not an OLE2 compound file: the signature is missing');
  if (bytes.length < HEADER.bytes) throw damaged(`cut short: the file is ${bytes.length} bytes, shorter than the 512-byte header`);
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

  const { fat, cutShort } = readFat(bytes, sectorSize, sectorCount);
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
  if (root === undefined || root.type !== DIRECTORY.root) throw damaged('the directory has no root entry');

  const miniFatStart = readU32(bytes, 0x3c);
  const miniFatChain = miniFatStart > SECTOR.MAXREGSECT ? [] : sectorChain(miniFatStart, 'the mini FAT');
  const miniFat = u32Array(readSectors(miniFatChain, miniFatChain.length * sectorSize, true));
  let miniStream: Uint8Array | null = null;
  const loadMiniStream = (): Uint8Array => {
    if (miniStream === null) {
      const chain = root.start > SECTOR.MAXREGSECT ? [] : sectorChain(root.start, 'the mini stream');
      if (root.size > chain.length * sectorSize) throw damaged('the mini stream is longer than its sector chain');
      miniStream = readSectors(chain, root.size);
    }
    return miniStream;
  };

  const entries: CfbEntry[] = [];
  const streams = new Map<string, DirectoryEntry>();
  walkTree(directory, root.child, '', (entry, path) => {
    const kind = entry.type === DIRECTORY.storage ? 'storage' : 'stream';
    entries.push({ path, name: entry.name, kind, size: entry.size });
    if (kind === 'stream') streams.set(path.toLowerCase(), entry);
  });

  return {
    entries,
    cutShort,
    has: (path) => streams.has(path.toLowerCase()),
    read: (path) => {
      const entry = streams.get(path.toLowerCase());
      if (entry === undefined) return null;
      if (entry.size === 0) return new Uint8Array(0);
      if (entry.size < miniStreamCutoff) {
        const mini = loadMiniStream();
        const miniCount = Math.ceil(mini.length / miniSectorSize);
        const chain = followChain(entry.start, miniFat, miniCount, `stream "${entry.name}"`, 'the mini stream');
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

/**
 * The FAT: its sectors are the header's 109 DIFAT entries, then those of the DIFAT sector chain. `cutShort` when an
 * entry links a sector beyond the end of the file. (Chain ends are not checked: some writers mark unused sectors
 * as chain ends instead of free.)
 */
function readFat(bytes: Uint8Array, sectorSize: number, sectorCount: number): { fat: number[]; cutShort: boolean } {
  const fatSectors: number[] = [];
  for (let index = 0; index < HEADER.difatEntries; index += 1) {
    const sector = readU32(bytes, 0x4c + index * 4);
    if (sector > SECTOR.MAXREGSECT) break;
    fatSectors.push(sector);
  }
  const perDifat = sectorSize / 4 - 1;
  const seen = new Set<number>();
  let difat = readU32(bytes, 0x44);
  while (difat <= SECTOR.MAXREGSECT) {
    if (difat >= sectorCount) throw damaged(`cut short: DIFAT sector ${difat} lies beyond the end of the file`);
    if (seen.has(difat)) throw damaged('the DIFAT chain loops');
    seen.add(difat);
    const base = (difat + 1) * sectorSize;
    for (let index = 0; index < perDifat; index += 1) {
      const sector = readU32(bytes, base + index * 4);
      if (sector <= SECTOR.MAXREGSECT) fatSectors.push(sector);
    }
    difat = readU32(bytes, base + perDifat * 4);
  }
  if (fatSectors.length === 0) throw damaged('the header lists no FAT sector');
  const fat: number[] = [];
  const perFat = sectorSize / 4;
  // More FAT entries than the file has sectors are never needed (a hostile header could list the same sector often).
  const wanted = Math.min(fatSectors.length * perFat, sectorCount + perFat);
  let cutShort = false;
  for (const sector of fatSectors) {
    if (fat.length >= wanted) break;
    if (sector >= sectorCount) throw damaged(`cut short: FAT sector ${sector} lies beyond the end of the file`);
    const base = (sector + 1) * sectorSize;
    for (let index = 0; index < perFat; index += 1) {
      const next = base + index * 4 + 4 <= bytes.length ? readU32(bytes, base + index * 4) : SECTOR.FREESECT;
      if (next <= SECTOR.MAXREGSECT && next >= sectorCount) cutShort = true;
      fat.push(next);
    }
  }
  return { fat, cutShort };
}

/**
 * What is left to read of a compound file cut short, whose directory (and often allocation table) Office writes
 * last: the readers that find its streams by their content (cfb-cut-word.ts, cfb-cut-workbook.ts) start here.
 */
export interface CutFileSectors {
  /** The sector size the header declares. */
  size: number;
  /** Sectors the file holds, the last one maybe cut. */
  count: number;
  /** Where a sector starts in the file. */
  offsetOf(sector: number): number;
  /**
   * The allocation table as far as it survives: entry i is sector i's successor, undefined where the FAT sector that
   * holds it is not whole in the file. Only the header's own list of FAT sectors is read: whatever the DIFAT chain
   * adds (a file of over 7 MB) is written after them.
   */
  fat: readonly (number | undefined)[];
}

/** The sectors of a compound file that may be cut short; undefined when its header declares no sector size the format allows. */
export function cutFileSectors(bytes: Uint8Array): CutFileSectors | undefined {
  if (bytes.length < HEADER.bytes) return undefined;
  const shift = readU16(bytes, 0x1e);
  if (shift !== 9 && shift !== 12) return undefined;
  const size = 1 << shift;
  if (bytes.length <= size) return undefined;
  const count = Math.ceil((bytes.length - size) / size);
  const fat: (number | undefined)[] = [];
  const listed = Math.min(readU32(bytes, 0x2c), HEADER.difatEntries);
  for (let index = 0; index < listed && fat.length < count; index += 1) {
    const sector = readU32(bytes, 0x4c + index * 4);
    const base = (sector + 1) * size;
    const whole = sector <= SECTOR.MAXREGSECT && base + size <= bytes.length;
    for (let entry = 0; entry < size / 4 && fat.length < count; entry += 1) fat.push(whole ? readU32(bytes, base + entry * 4) : undefined);
  }
  return { size, count, offsetOf: (sector) => (sector + 1) * size, fat };
}

/**
 * The bytes of the stream of a file cut short that starts at sector `start`: its chain in the allocation table where
 * the table survives, the next sector in the file where it does not (Office writes a stream's sectors in a run), to
 * its end of chain or the end of the file. Each sector is taken at most once.
 */
export function readCutStream(bytes: Uint8Array, sectors: CutFileSectors, start: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const seen = new Set<number>();
  let length = 0;
  for (let sector = start; sector < sectors.count && !seen.has(sector); ) {
    seen.add(sector);
    const begin = sectors.offsetOf(sector);
    const part = bytes.subarray(begin, Math.min(begin + sectors.size, bytes.length));
    parts.push(part);
    length += part.length;
    const next = sectors.fat[sector];
    if (next === undefined) sector += 1;
    else if (next > SECTOR.MAXREGSECT) break;
    else sector = next;
  }
  return Buffer.concat(parts, length);
}

/** A file cut short whose streams were found but cannot be read, and why ("cut inside its globals, …"). */
export interface UnreadStreams {
  unread: string;
}

/**
 * A compound file made of streams found in a file cut short (their names as the format gives them): what the
 * converters read, `cutShort` set.
 */
export function foundStreams(found: readonly (readonly [name: string, bytes: Uint8Array])[]): CompoundFile {
  const streams = new Map(found.map(([name, bytes]) => [name.toLowerCase(), bytes]));
  return {
    entries: found.map(([name, bytes]) => ({ path: name, name, kind: 'stream', size: bytes.length })),
    cutShort: true,
    has: (path) => streams.has(path.toLowerCase()),
    read: (path) => streams.get(path.toLowerCase()) ?? null,
  };
}

/** The sectors of a chain, in order. Each sector at most once; every one must exist. */
function followChain(start: number, table: readonly number[], limit: number, what: string, container = 'the file'): number[] {
  const chain: number[] = [];
  const seen = new Set<number>();
  let sector = start;
  while (sector !== SECTOR.ENDOFCHAIN) {
    if (sector > SECTOR.MAXREGSECT) throw damaged(`the sector chain of ${what} hits a free or reserved sector`);
    if (sector >= limit) throw damaged(`cut short: the sector chain of ${what} reaches sector ${sector}, beyond the end of ${container}`);
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
  for (let at = 0; at + DIRECTORY.entryBytes <= raw.length; at += DIRECTORY.entryBytes) {
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
      if (id === DIRECTORY.NOSTREAM) continue;
      const entry = directory[id];
      if (entry === undefined) throw damaged(`directory entry ${id} is outside the directory`);
      if (visited.has(id)) throw damaged('the directory tree loops');
      visited.add(id);
      stack.push(entry.right, entry.left);
      if (entry.type !== DIRECTORY.storage && entry.type !== DIRECTORY.stream) continue;
      const path = base === '' ? entry.name : `${base}/${entry.name}`;
      visit(entry, path);
      if (entry.type === DIRECTORY.storage && depth < MAX_STORAGE_DEPTH) storages.push({ id: entry.child, prefix: path, depth: depth + 1 });
    }
  }
}
