/**
 * The File Information Block of a Word 97-2003 document ([MS-DOC] 2.5): the header at the start of the
 * `WordDocument` stream that says which table stream holds the document's tables, how long each story is (main
 * text, footnotes, headers...) and where each table (piece table, styles, paragraph properties...) lies.
 */
import { EngineError } from '../engine-error.js';
import { readU16, readU32 } from './bytes.js';

const WORD_IDENT = 0xa5ec;
/** The highest nFib of Word 6.0/95 (101-105); Word 97 and later write 0x00C1 or more. */
const NFIB_LAST_WORD95 = 105;

/** Indices into FibRgFcLcb97 (each an fc/lcb pair of 8 bytes). */
export const FC = {
  stshf: 1,
  plcffndRef: 2,
  plcffndTxt: 3,
  plcfHdd: 11,
  plcfBteChpx: 12,
  plcfBtePapx: 13,
  clx: 33,
  plcSpaMom: 40,
  plcfendRef: 46,
  plcfendTxt: 47,
  plcftxbxTxt: 56,
  plfLst: 73,
  plfLfo: 74,
} as const;

export interface Fib {
  nFib: number;
  encrypted: boolean;
  /** "0Table" or "1Table". */
  tableStream: string;
  /** Character counts of the stories, in CP order. */
  ccpText: number;
  ccpFtn: number;
  ccpHdd: number;
  ccpAtn: number;
  ccpEdn: number;
  ccpTxbx: number;
  /** [fc, lcb] of a FibRgFcLcb97 entry ([0, 0] when the FIB is too short to have it). */
  table(index: number): [fc: number, lcb: number];
}

export function readFib(stream: Uint8Array): Fib {
  if (stream.length < 0x22 || readU16(stream, 0) !== WORD_IDENT) {
    throw new EngineError('CORRUPT_DOCUMENT', 'not a Word 97-2003 document: the WordDocument stream has no Word header (FIB)');
  }
  const flags = readU16(stream, 0x0a);
  const nFib = readU16(stream, 0x02);
  const encrypted = (flags & 0x0100) !== 0;
  if (encrypted) {
    throw new EngineError('ENCRYPTED_DOCUMENT', 'the Word document is password-protected (encrypted); remove the password and try again');
  }
  // Word 6/95 wrote nFib 101-105; their FIB has no csw/cslw/cbRgFcLcb arrays and 8-bit text only.
  if (nFib <= NFIB_LAST_WORD95) {
    throw new EngineError('UNSUPPORTED_FILE', `the file is a Word 6.0/95 document (FIB version ${nFib}); only Word 97-2003 binaries are read`);
  }
  const csw = readU16(stream, 0x20);
  const rgLwStart = 0x22 + csw * 2 + 2;
  const cslw = readU16(stream, rgLwStart - 2);
  const rgLw = (index: number) => (index < cslw ? readU32(stream, rgLwStart + index * 4) : 0);
  const fcLcbStart = rgLwStart + cslw * 4 + 2;
  const cbRgFcLcb = readU16(stream, fcLcbStart - 2);
  if (fcLcbStart + cbRgFcLcb * 8 > stream.length) {
    throw new EngineError('CORRUPT_DOCUMENT', 'the Word header (FIB) is cut short');
  }
  return {
    nFib,
    encrypted,
    tableStream: (flags & 0x0200) !== 0 ? '1Table' : '0Table',
    ccpText: rgLw(3),
    ccpFtn: rgLw(4),
    ccpHdd: rgLw(5),
    ccpAtn: rgLw(7),
    ccpEdn: rgLw(8),
    ccpTxbx: rgLw(9),
    table: (index) =>
      index < cbRgFcLcb ? [readU32(stream, fcLcbStart + index * 8), readU32(stream, fcLcbStart + index * 8 + 4)] : [0, 0],
  };
}
