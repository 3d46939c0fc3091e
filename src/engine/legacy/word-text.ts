/**
 * The text of a Word 97-2003 document through its piece table ([MS-DOC] 2.4.1 "Retrieving Text"). The CLX in the
 * table stream maps character positions (CPs, counted over all stories: main text, footnotes, headers, ...) to
 * pieces of the WordDocument stream, each either UTF-16LE or "compressed" 8-bit Windows-1252 text. The FC (byte
 * offset in the WordDocument stream) of a character is what the paragraph and character property tables are keyed by.
 */
import { EngineError } from '../engine-error.js';
import { cp1252, readI16, readU32, readU8, utf16 } from './bytes.js';

export interface Piece {
  cpStart: number;
  cpEnd: number;
  /** Byte offset of the piece's first character in the WordDocument stream. */
  fc: number;
  /** 8-bit (Windows-1252) rather than UTF-16LE. */
  compressed: boolean;
}

export interface WordText {
  /** All stories' characters, indexed by CP (one UTF-16 code unit per CP). */
  text: string;
  /** The byte offset in the WordDocument stream of the character at `cp` (-1 outside every piece). */
  fcOf(cp: number): number;
  /** The piece holding the character at `cp`. */
  pieceAt(cp: number): Piece | undefined;
}

/** A piece table with more pieces than this is refused rather than walked. */
const MAX_PIECES = 1_000_000;

export function readPieceTable(table: Uint8Array, clxOffset: number, clxLength: number): Piece[] {
  const corrupt = (cause: string) => new EngineError('CORRUPT_DOCUMENT', `the Word piece table is damaged: ${cause}`);
  if (clxLength === 0) throw corrupt('the document has no piece table (CLX)');
  const end = clxOffset + clxLength;
  if (end > table.length) throw corrupt('it lies outside the table stream');
  let at = clxOffset;
  // Prc entries (property modifiers for pieces) come first: skipped.
  while (at < end && readU8(table, at) === 0x01) {
    const size = readI16(table, at + 1);
    if (size < 0) throw corrupt('a property modifier has a negative size');
    at += 3 + size;
  }
  if (readU8(table, at) !== 0x02) throw corrupt('no Pcdt record');
  const size = readU32(table, at + 1);
  at += 5;
  if (at + size > end || size < 4) throw corrupt('the Pcdt record runs past the CLX');
  // PlcPcd: n + 1 CPs, then n 8-byte piece descriptors.
  const count = (size - 4) / 12;
  if (!Number.isInteger(count) || count > MAX_PIECES) throw corrupt(`the piece table's size (${size} bytes) does not fit whole pieces`);
  const pieces: Piece[] = [];
  const descriptors = at + (count + 1) * 4;
  for (let index = 0; index < count; index += 1) {
    const cpStart = readU32(table, at + index * 4);
    const cpEnd = readU32(table, at + (index + 1) * 4);
    if (cpEnd < cpStart) throw corrupt('its character positions go backwards');
    const raw = readU32(table, descriptors + index * 8 + 2);
    const compressed = (raw & 0x40000000) !== 0;
    const fc = raw & 0x3fffffff;
    pieces.push({ cpStart, cpEnd, fc: compressed ? fc / 2 : fc, compressed });
  }
  return pieces;
}

export function readText(wordStream: Uint8Array, pieces: readonly Piece[], cpLimit: number): WordText {
  const parts: string[] = [];
  let cp = 0;
  for (const piece of pieces) {
    if (piece.cpStart >= cpLimit) break;
    // Pieces follow each other from CP 0: an overlap or a gap (which could claim billions of characters) is damage.
    if (piece.cpStart !== cp) {
      throw new EngineError('CORRUPT_DOCUMENT', `the Word piece table is damaged: its pieces ${piece.cpStart < cp ? 'overlap' : 'leave a gap'}`);
    }
    const count = Math.min(piece.cpEnd, cpLimit) - piece.cpStart;
    const byteLength = piece.compressed ? count : count * 2;
    if (piece.fc + byteLength > wordStream.length) {
      throw new EngineError('CORRUPT_DOCUMENT', 'the Word piece table points past the end of the WordDocument stream');
    }
    const text = piece.compressed ? cp1252(wordStream, piece.fc, count) : utf16(wordStream, piece.fc, count);
    parts.push(text);
    cp = piece.cpStart + text.length;
  }
  const text = parts.join('');
  let last: Piece | undefined;
  const pieceAt = (position: number): Piece | undefined => {
    // Reads go forward through the text: the last piece found is nearly always the right one.
    if (last !== undefined && position >= last.cpStart && position < last.cpEnd) return last;
    let low = 0;
    let high = pieces.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const piece = pieces[middle] as Piece;
      if (position < piece.cpStart) high = middle - 1;
      else if (position >= piece.cpEnd) low = middle + 1;
      else return (last = piece);
    }
    return undefined;
  };
  return {
    text,
    pieceAt,
    fcOf: (position) => {
      const piece = pieceAt(position);
      return piece === undefined ? -1 : piece.fc + (position - piece.cpStart) * (piece.compressed ? 1 : 2);
    },
  };
}

/** Number of data elements of a PLC of `length` bytes whose elements are `elementSize` bytes. */
export function plcCount(length: number, elementSize: number): number {
  if (length < 4) return 0;
  return Math.max(0, Math.floor((length - 4) / (4 + elementSize)));
}
