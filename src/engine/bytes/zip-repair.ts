/**
 * A zip package cut short (a download or an upload that stopped early) has lost its central directory, which is at
 * the end of the file, and often its last parts; the parts before the cut are whole, each behind its own local header.
 * Readers (zip.ts, SheetJS, mammoth) find parts through the directory, so this writes a new one: the local headers
 * are walked from the start, every part whose data is whole in the file is kept where it is, and a central
 * directory and end record naming them are appended, as `zip -FF` does. A part written with a data descriptor
 * (sizes and CRC after its data: LibreOffice's, Java's) is measured by inflating it, within the zip limits. The walk
 * stops at the first part that is cut off, or damaged, or not deflated or stored.
 */
import { constants as zlibConstants, inflateRawSync } from 'node:zlib';
import { readU16, readU32 } from './binary.js';
import {
  CENTRAL_HEADER_BYTES,
  DEFLATED,
  END_RECORD_BYTES,
  LOCAL_HEADER_BYTES,
  SATURATED,
  STORED,
  ZIP_CENTRAL_HEADER as CENTRAL_HEADER,
  ZIP_END_OF_CENTRAL_DIRECTORY as END_RECORD,
  ZIP_LIMITS,
  ZIP_LOCAL_HEADER as LOCAL_HEADER,
} from './zip.js';

const DATA_DESCRIPTOR = 0x08074b50;
/** General-purpose flag bit 3: sizes and CRC come after the data. */
const HAS_DESCRIPTOR = 0x08;

/** A whole part found behind its local header, with what its directory record needs. */
interface WholePart {
  offset: number;
  /** "Version needed to extract", as its local header says. */
  versionNeeded: number;
  flags: number;
  method: number;
  time: number;
  date: number;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  name: Uint8Array;
}

export interface RepairedZip {
  /** The file's bytes, a new central directory and end record after them. */
  bytes: Uint8Array;
  /** Parts kept. */
  parts: number;
  /**
   * The file ends inside a part, or inside the directory records that follow the parts, before any end record:
   * it was cut there.
   */
  cutShort: boolean;
}

/** Why a part is not taken: its data runs past the end of the file, or anything else. */
type NotWhole = 'cut' | 'other';

/** The part behind the local header at `at` and where the next header starts, or undefined when it is not whole. */
function wholePart(bytes: Uint8Array, at: number, inflateBudget: { bytes: number }): { part: WholePart; next: number } | NotWhole {
  const flags = readU16(bytes, at + 6);
  const method = readU16(bytes, at + 8);
  const nameLength = readU16(bytes, at + 26);
  const dataStart = at + LOCAL_HEADER_BYTES + nameLength + readU16(bytes, at + 28);
  if (dataStart > bytes.length) return 'cut';
  if (method !== STORED && method !== DEFLATED) return 'other';
  const part: WholePart = {
    offset: at,
    versionNeeded: readU16(bytes, at + 4),
    flags,
    method,
    time: readU16(bytes, at + 10),
    date: readU16(bytes, at + 12),
    crc: readU32(bytes, at + 14),
    compressedSize: readU32(bytes, at + 18),
    uncompressedSize: readU32(bytes, at + 22),
    name: bytes.subarray(at + LOCAL_HEADER_BYTES, at + LOCAL_HEADER_BYTES + nameLength),
  };
  if ((flags & HAS_DESCRIPTOR) === 0) {
    if (part.compressedSize === SATURATED || part.uncompressedSize === SATURATED) return 'other';
    const end = dataStart + part.compressedSize;
    return end <= bytes.length ? { part, next: end } : 'cut';
  }
  // Sizes and CRC follow the data: a deflate stream says where it ends; stored data does not.
  if (method !== DEFLATED) return 'other';
  let consumed: number;
  try {
    const result = inflateRawSync(bytes.subarray(dataStart), {
      info: true,
      maxOutputLength: Math.max(1, Math.min(ZIP_LIMITS.entryBytes, inflateBudget.bytes)),
      finishFlush: zlibConstants.Z_FINISH,
    }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
    consumed = result.engine.bytesWritten;
    part.uncompressedSize = result.buffer.length;
    inflateBudget.bytes -= result.buffer.length;
  } catch (error) {
    // The stream does not end in the file: cut there. Else damaged, or past the limits.
    return (error as NodeJS.ErrnoException).code === 'Z_BUF_ERROR' ? 'cut' : 'other';
  }
  let descriptor = dataStart + consumed;
  if (readU32(bytes, descriptor) === DATA_DESCRIPTOR) descriptor += 4;
  if (descriptor + 12 > bytes.length) return 'cut';
  part.crc = readU32(bytes, descriptor);
  part.compressedSize = consumed;
  if (readU32(bytes, descriptor + 4) !== consumed) return 'other'; // not the descriptor of this data
  return { part, next: descriptor + 12 };
}

/** The package with a new central directory naming its whole parts, or null when it has none. */
export function repairCutZip(bytes: Uint8Array): RepairedZip | null {
  const parts: WholePart[] = [];
  const budget = { bytes: ZIP_LIMITS.totalBytes };
  let cutShort = false;
  let at = 0;
  while (at + 4 <= bytes.length && readU32(bytes, at) === LOCAL_HEADER && parts.length < ZIP_LIMITS.entries) {
    const found = at + LOCAL_HEADER_BYTES <= bytes.length ? wholePart(bytes, at, budget) : 'cut';
    if (typeof found === 'string') {
      cutShort = found === 'cut';
      break;
    }
    parts.push(found.part);
    at = found.next;
  }
  // After the last part, directory records up to where the file ends: cut inside the directory.
  if (!cutShort && readU32(bytes, at) === CENTRAL_HEADER) {
    while (at + CENTRAL_HEADER_BYTES <= bytes.length && readU32(bytes, at) === CENTRAL_HEADER) {
      at += CENTRAL_HEADER_BYTES + readU16(bytes, at + 28) + readU16(bytes, at + 30) + readU16(bytes, at + 32);
    }
    // The file ends in a directory record, or in the end record itself.
    cutShort = at + (readU32(bytes, at) === END_RECORD ? END_RECORD_BYTES : CENTRAL_HEADER_BYTES) > bytes.length;
  }
  if (parts.length === 0 || bytes.length > SATURATED) return null;
  const records = parts.map((part) => {
    const record = Buffer.alloc(CENTRAL_HEADER_BYTES + part.name.length);
    record.writeUInt32LE(CENTRAL_HEADER, 0);
    record.writeUInt16LE(20, 4); // made by: version 2.0, MS-DOS attributes
    record.writeUInt16LE(part.versionNeeded, 6);
    record.writeUInt16LE(part.flags, 8);
    record.writeUInt16LE(part.method, 10);
    record.writeUInt16LE(part.time, 12);
    record.writeUInt16LE(part.date, 14);
    record.writeUInt32LE(part.crc, 16);
    record.writeUInt32LE(part.compressedSize, 20);
    record.writeUInt32LE(part.uncompressedSize, 24);
    record.writeUInt16LE(part.name.length, 28);
    // Extra field, comment, disk, attributes: none.
    record.writeUInt32LE(part.offset, 42);
    record.set(part.name, CENTRAL_HEADER_BYTES);
    return record;
  });
  const directory = Buffer.concat(records);
  const end = Buffer.alloc(END_RECORD_BYTES);
  end.writeUInt32LE(END_RECORD, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(bytes.length, 16);
  return { bytes: Buffer.concat([bytes, directory, end]), parts: parts.length, cutShort };
}
