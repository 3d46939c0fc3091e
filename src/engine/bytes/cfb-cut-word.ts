/**
 * A Word 97-2003 document cut short (an interrupted copy or download), read from the streams that survive the cut.
 *
 * Word writes a .doc's streams first (WordDocument, Data, the table stream, the property sets) and its compound
 * file's own structure last: the allocation table, the directory and the mini stream end the file. A file cut
 * anywhere has lost them, and with them every stream's place and name. But Word writes each stream in consecutive
 * sectors, and the two that hold the text can be told by their content:
 * - the WordDocument stream begins with the Word header (FIB: `0xA5EC`, a Word 97 or later version), at a sector's
 *   start;
 * - the table stream (`0Table` or `1Table`, as the FIB says) is the one, starting at a sector, that holds a whole
 *   piece table (CLX) where the FIB says it lies: property modifiers, then a Pcdt record exactly as long as the FIB
 *   says, its character positions starting at 0, rising, and reaching at least the main text's length, every piece
 *   in the file.
 * A document whose piece table survived (the cut came after it: in the property sets or the structure) is read from
 * them as if whole. Its title and author (the property sets) and its pictures (the Data stream) are not looked for.
 *
 * A document whose table stream was lost too, but not the text (Word 97 and later keep a document saved whole, not
 * fast-saved, as one run of text between the FIB's fcMin and fcMac, in 8-bit or UTF-16 characters as its length
 * against the stories' character counts says) is read as plain paragraphs: its WordDocument stream is given to the
 * converter with a FIB that names no table but a piece table of that one run, made here.
 *
 * Word's header and piece table are read here as far as finding them needs, with the container's own reads
 * (binary.ts): the full readers (legacy/word-fib.ts, legacy/word-text.ts) belong to the converter, which the sniffer
 * does not load.
 */
import { readU16, readU32 } from './binary.js';
import { cutFileSectors, foundStreams, type CompoundFile, type CutFileSectors } from './cfb.js';

const WORD_IDENT = 0xa5ec;
/** Word 97 wrote nFib 0x00C1; Word 6/95 wrote 101-105 (a FIB of another layout, not read). */
const FIRST_WORD97_NFIB = 0xc1;
/** FibBase flags: fComplex (fast-saved), fEncrypted, fWhichTblStm. */
const FLAG_COMPLEX = 0x0004;
const FLAG_ENCRYPTED = 0x0100;
const FLAG_TABLE_1 = 0x0200;
/** FibBase: the text's first and last byte, where Word 97 and later still write them. */
const FC_MIN = 0x18;
const FC_MAC = 0x1c;
/**
 * FibRgLw97: ccpText is its fourth entry, then ccpFtn, ccpHdd, a reserved one, ccpAtn, ccpEdn, ccpTxbx, ccpHdrTxbx.
 * FibRgFcLcb97: fcClx/lcbClx is its 34th pair.
 */
const CCP_TEXT = 3;
const CCP_OTHER_STORIES = [4, 5, 7, 8, 9, 10];
const CLX_PAIR = 33;
/** Sectors looked at for the Word header: Word puts it at the first. */
const FIB_SECTORS = 64;
/** A piece table of more pieces than this is not taken for one. */
const MAX_PIECES = 1_000_000;
/**
 * Piece descriptors looked at over every sector tried as the table stream's start: a hostile file can make each
 * sector's candidate look like a long piece table, and the search must stay linear in the file's size.
 */
const MAX_PIECES_EXAMINED = 4_000_000;

interface WordHeader {
  tableStream: '0Table' | '1Table';
  ccpText: number;
  /** The characters of every story (main text, footnotes, headers…), and the count the text's run holds. */
  ccpAll: number;
  clx: { offset: number; length: number };
  complex: boolean;
  fcMin: number;
  fcMac: number;
  /** Where FibRgLw97 and FibRgFcLcb97 start, and how many pairs the latter holds. */
  rgLwStart: number;
  cslw: number;
  fcLcbStart: number;
  cbRgFcLcb: number;
}

/** The FIB at the start of `stream`, as far as finding the table stream needs; undefined when it is none. */
function wordHeader(stream: Uint8Array): WordHeader | undefined {
  if (stream.length < 0x22 || readU16(stream, 0) !== WORD_IDENT || readU16(stream, 2) < FIRST_WORD97_NFIB) return undefined;
  const flags = readU16(stream, 0x0a);
  // An encrypted document's key is in the stream's tables, cut or not: it stays refused as damaged.
  if ((flags & FLAG_ENCRYPTED) !== 0) return undefined;
  const csw = readU16(stream, 0x20);
  const rgLwStart = 0x22 + csw * 2 + 2;
  const cslw = readU16(stream, rgLwStart - 2);
  const fcLcbStart = rgLwStart + cslw * 4 + 2;
  const cbRgFcLcb = readU16(stream, fcLcbStart - 2);
  if (cslw <= Math.max(CCP_TEXT, ...CCP_OTHER_STORIES) || cbRgFcLcb <= CLX_PAIR || fcLcbStart + cbRgFcLcb * 8 > stream.length) return undefined;
  const ccpText = readU32(stream, rgLwStart + CCP_TEXT * 4);
  const others = CCP_OTHER_STORIES.reduce((sum, index) => sum + readU32(stream, rgLwStart + index * 4), 0);
  return {
    tableStream: (flags & FLAG_TABLE_1) !== 0 ? '1Table' : '0Table',
    ccpText,
    // Word ends the stories with one more paragraph mark when there is any story but the main text.
    ccpAll: ccpText + others + (others > 0 ? 1 : 0),
    clx: { offset: readU32(stream, fcLcbStart + CLX_PAIR * 8), length: readU32(stream, fcLcbStart + CLX_PAIR * 8 + 4) },
    complex: (flags & FLAG_COMPLEX) !== 0,
    fcMin: readU32(stream, FC_MIN),
    fcMac: readU32(stream, FC_MAC),
    rgLwStart,
    cslw,
    fcLcbStart,
    cbRgFcLcb,
  };
}

/**
 * The WordDocument stream given a FIB that names no table but a piece table of the text's one run, and that piece
 * table as its table stream: the text with no formatting, no notes, headers or text boxes (whose tables are lost).
 * A run the cut went through gives the main text up to the cut (`textCut`). Undefined when the document is
 * fast-saved, or its run is not where the FIB says or not of the stories' length.
 */
function plainTextStreams(word: Uint8Array, header: WordHeader): { word: Uint8Array; table: Uint8Array; textCut: boolean } | undefined {
  const { fcMin, fcMac, ccpAll, ccpText } = header;
  if (header.complex || ccpText === 0 || fcMin < header.fcLcbStart + header.cbRgFcLcb * 8 || fcMin >= word.length) return undefined;
  const bytes = fcMac - fcMin;
  const compressed = bytes === ccpAll || bytes === ccpText;
  if (!compressed && bytes !== ccpAll * 2 && bytes !== ccpText * 2) return undefined;
  const textCut = fcMac > word.length;
  const kept = Math.min(fcMac, word.length) - fcMin;
  const characters = compressed ? kept : Math.floor(kept / 2);
  // Clx: one Pcdt of one piece (two CPs and one 8-byte descriptor), as [MS-DOC] 2.9.38 lays it out.
  const table = new Uint8Array(21);
  const view = new DataView(table.buffer);
  table[0] = 0x02;
  view.setUint32(1, 16, true);
  view.setUint32(5, 0, true);
  view.setUint32(9, characters, true);
  view.setUint32(15, compressed ? (fcMin * 2) | 0x40000000 : fcMin, true);
  const copy = word.slice();
  const fib = new DataView(copy.buffer, copy.byteOffset, copy.byteLength);
  for (const index of CCP_OTHER_STORIES) fib.setUint32(header.rgLwStart + index * 4, 0, true);
  fib.setUint32(header.rgLwStart + CCP_TEXT * 4, Math.min(ccpText, characters), true);
  copy.fill(0, header.fcLcbStart, header.fcLcbStart + header.cbRgFcLcb * 8);
  fib.setUint32(header.fcLcbStart + CLX_PAIR * 8 + 4, table.length, true);
  return { word: copy, table, textCut };
}

/**
 * Whether `table` holds, at the FIB's place, a whole piece table of this document whose pieces start within the
 * `wordLength` bytes left of the file from the WordDocument stream's start.
 */
function holdsPieceTable(table: Uint8Array, header: WordHeader, wordLength: number, budget: { pieces: number }): boolean {
  const { offset, length } = header.clx;
  const end = offset + length;
  if (length === 0 || end > table.length) return false;
  let at = offset;
  while (at < end && table[at] === 0x01) at += 3 + readU16(table, at + 1);
  if (at >= end || table[at] !== 0x02) return false;
  const size = readU32(table, at + 1);
  at += 5;
  const count = (size - 4) / 12;
  if (at + size !== end || !Number.isInteger(count) || count < 1 || count > MAX_PIECES) return false;
  if (readU32(table, at) !== 0) return false;
  const descriptors = at + (count + 1) * 4;
  for (let index = 0; index < count; index += 1) {
    if (--budget.pieces < 0) return false;
    if (readU32(table, at + (index + 1) * 4) <= readU32(table, at + index * 4)) return false;
    const raw = readU32(table, descriptors + index * 8 + 2);
    const fc = (raw & 0x40000000) !== 0 ? (raw & 0x3fffffff) / 2 : raw & 0x3fffffff;
    if (fc >= wordLength) return false;
  }
  return readU32(table, at + count * 4) >= header.ccpText;
}

/**
 * How a Word document cut short was read: `streams`, from its streams as written; `plain-text`, as plain text (its
 * tables lost); `text-cut`, as plain text up to the cut, which went through the text itself.
 */
export interface RecoveredWordFile {
  cfb: CompoundFile;
  read: 'streams' | 'plain-text' | 'text-cut';
}

/**
 * The WordDocument and table streams of a Word document cut short, found by their content, as a compound file
 * holding those two; or, its table stream lost, its text as plain paragraphs; undefined when neither can be read.
 */
export function recoverCutWordFile(bytes: Uint8Array, sectors: CutFileSectors | undefined = cutFileSectors(bytes)): RecoveredWordFile | undefined {
  if (!sectors) return undefined;
  const { count: sectorCount, offsetOf } = sectors;
  let word: { sector: number; header: WordHeader } | undefined;
  for (let sector = 0; sector < Math.min(sectorCount, FIB_SECTORS) && !word; sector += 1) {
    const header = wordHeader(bytes.subarray(offsetOf(sector)));
    if (header) word = { sector, header };
  }
  if (!word) return undefined;
  const { header } = word;
  let tableSector: number | undefined;
  const budget = { pieces: MAX_PIECES_EXAMINED };
  for (let sector = 0; sector < sectorCount && tableSector === undefined && budget.pieces > 0; sector += 1) {
    if (sector !== word.sector && holdsPieceTable(bytes.subarray(offsetOf(sector)), header, bytes.length - offsetOf(word.sector), budget)) tableSector = sector;
  }
  if (tableSector === undefined) {
    const plain = plainTextStreams(bytes.subarray(offsetOf(word.sector)), header);
    return plain && { cfb: foundStreams([['WordDocument', plain.word], [header.tableStream, plain.table]]), read: plain.textCut ? 'text-cut' : 'plain-text' };
  }
  // The WordDocument stream runs at most to the table stream when that follows it (Word writes it first), else to
  // the end; the table stream to the end: what lies past a stream's own end is never read by its offsets.
  const wordEnd = tableSector > word.sector ? offsetOf(tableSector) : bytes.length;
  return { cfb: foundStreams([['WordDocument', bytes.subarray(offsetOf(word.sector), wordEnd)], [header.tableStream, bytes.subarray(offsetOf(tableSector))]]), read: 'streams' };
}
