/**
 * OLE compound files (CFB: legacy Office binaries, and the container Office wraps an encrypted OOXML package in),
 * read only as far as their directory: the names of their streams and storages tell what they hold.
 */
import { readU16, readU32, startsWith } from './binary.js';

const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** Sector numbers at or above this are markers (end of chain, free, FAT, DIFAT), not sectors. */
const MAX_REGULAR_SECTOR = 0xfffffffa;
const FREE_SECTOR = 0xffffffff;
const MAX_DIFAT_SECTORS = 10_000;
const MAX_DIRECTORY_SECTORS = 100_000;

export type OleDirectory = { names: string[] } | { damage: string };

export function isOle(bytes: Uint8Array): boolean {
  return startsWith(bytes, OLE_SIGNATURE);
}

/**
 * The directory of an OLE compound file: its entry names, or what is wrong with it, worded to follow "an OLE
 * compound file" ("cut short: ...", "whose header ..."). Null when the bytes are not an OLE file.
 */
export function readOleDirectory(bytes: Uint8Array): OleDirectory | null {
  if (!isOle(bytes)) return null;
  if (bytes.length < 512) return { damage: 'cut short inside its 512-byte header' };
  const sectorShift = readU16(bytes, 0x1e);
  if (sectorShift !== 9 && sectorShift !== 12) return { damage: `whose header gives an impossible sector size (2^${sectorShift})` };
  const sectorSize = 1 << sectorShift;
  const sectorOffset = (sector: number) => (sector + 1) * sectorSize;
  const inFile = (sector: number) => sectorOffset(sector) + sectorSize <= bytes.length;

  // The FAT sectors: the first 109 are listed in the header, the rest in the DIFAT chain.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109; i += 1) {
    const sector = readU32(bytes, 0x4c + i * 4);
    if (sector >= MAX_REGULAR_SECTOR) break;
    fatSectors.push(sector);
  }
  let difatSector = readU32(bytes, 0x44);
  const perDifat = sectorSize / 4 - 1;
  for (let guard = 0; difatSector < MAX_REGULAR_SECTOR && guard < MAX_DIFAT_SECTORS; guard += 1) {
    if (!inFile(difatSector)) return { damage: 'cut short: its allocation table lies beyond the end of the file' };
    const base = sectorOffset(difatSector);
    for (let i = 0; i < perDifat; i += 1) {
      const sector = readU32(bytes, base + i * 4);
      if (sector < MAX_REGULAR_SECTOR) fatSectors.push(sector);
    }
    difatSector = readU32(bytes, base + perDifat * 4);
  }
  if (fatSectors.length === 0) return { damage: 'whose header lists no allocation table' };
  if (fatSectors.length > bytes.length / sectorSize) return { damage: 'whose allocation table is larger than the file' };
  if (!fatSectors.every(inFile)) return { damage: 'cut short: its allocation table lies beyond the end of the file' };

  const perFat = sectorSize / 4;
  const fatEntry = (sector: number): number => {
    const fatSector = fatSectors[Math.floor(sector / perFat)];
    if (fatSector === undefined) return FREE_SECTOR;
    return readU32(bytes, sectorOffset(fatSector) + (sector % perFat) * 4);
  };
  // Every sector a chain links to must be in the file: a file cut short keeps its header but loses its tail.
  // (Chain ends are not checked: some writers mark unused sectors as chain ends instead of free.)
  for (const fatSector of fatSectors) {
    const base = sectorOffset(fatSector);
    for (let i = 0; i < perFat; i += 1) {
      const next = readU32(bytes, base + i * 4);
      if (next < MAX_REGULAR_SECTOR && sectorOffset(next) >= bytes.length) {
        return { damage: 'cut short: sectors it uses lie beyond the end of the file' };
      }
    }
  }

  const names: string[] = [];
  let sector = readU32(bytes, 0x30);
  const seen = new Set<number>();
  while (sector < MAX_REGULAR_SECTOR && !seen.has(sector) && seen.size < MAX_DIRECTORY_SECTORS) {
    seen.add(sector);
    if (!inFile(sector)) return { damage: 'cut short: its directory lies beyond the end of the file' };
    const base = sectorOffset(sector);
    for (let entry = 0; entry < sectorSize / 128; entry += 1) {
      const at = base + entry * 128;
      const nameLength = readU16(bytes, at + 0x40);
      const type = bytes[at + 0x42];
      // Type 5 is the root storage, always present: its name says nothing about the content.
      if (type === 0 || type === 5 || nameLength < 2 || nameLength > 64) continue;
      let name = '';
      for (let i = 0; i < nameLength - 2; i += 2) name += String.fromCharCode(readU16(bytes, at + i));
      names.push(name);
    }
    sector = fatEntry(sector);
  }
  if (seen.size === 0) return { damage: 'whose header points at no directory' };
  return { names };
}

/** Names of the streams and storages in an OLE compound file's directory, or null when it cannot be read. */
export function oleStreamNames(bytes: Uint8Array): string[] | null {
  const directory = readOleDirectory(bytes);
  return directory !== null && 'names' in directory ? directory.names : null;
}

/**
 * An OLE compound file holding an encrypted OOXML package (what Office writes for a password-protected .docx,
 * .xlsx or .pptx): it has `EncryptionInfo` and `EncryptedPackage` streams.
 */
export function isEncryptedOoxml(bytes: Uint8Array): boolean {
  const names = oleStreamNames(bytes);
  return names !== null && names.includes('EncryptionInfo') && names.includes('EncryptedPackage');
}
