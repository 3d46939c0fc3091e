/**
 * An Excel 97-2003 workbook cut short (an interrupted copy or download), read from the Workbook stream that
 * survives the cut.
 *
 * Excel writes the compound file's directory, and often its allocation table, at the end: a file cut anywhere has
 * lost every stream's name and place. But the Workbook stream (BIFF8; `Book`, BIFF5, in Excel 5/95 files) can be
 * told by its content, and read on its own:
 * - it begins, at a sector's start, with a BOF record of the workbook globals (record 0x0809, version 0x0600 or
 *   0x0500, substream type 0x0005);
 * - its sectors are those the allocation table chains from there, as far as the table survives, and the sectors
 *   that follow in the file where it does not (Excel writes a stream in consecutive sectors);
 * - it is a run of records (type, length, data), globals first, then one substream per sheet, each from a BOF to
 *   its EOF, where the globals' sheet list (BOUNDSHEET records) says each sheet starts.
 * The records are walked from the BOF: the globals must be whole (they hold the sheet list and the shared
 * strings); each sheet whose substream starts where the list says is read, a sheet cut by the end of the file up
 * to its last whole record, closed there by an EOF made here; a record that cannot be one (a length past the
 * format's limit, a sheet starting elsewhere than listed) ends the walk, as the cut does. The stream so read is
 * what SheetJS is given, as it reads a bare BIFF stream.
 *
 * An encrypted workbook (a FILEPASS record in its globals) is not recovered: SheetJS would read its cells as
 * garbage. The work is bounded by the file: at most MAX_CANDIDATES workbook starts are tried, each walk reads each
 * record once.
 */
import { readU16, readU32 } from './binary.js';
import { cutFileSectors, readCutStream, type CutFileSectors, type UnreadStreams } from './cfb.js';

/** [MS-XLS] 2.4: the record types read here. */
const RECORD = { BOF: 0x0809, EOF: 0x000a, BOUNDSHEET: 0x0085, FILEPASS: 0x002f } as const;
/** BOF versions (BIFF8, BIFF5) and substream types: the workbook globals; the others are sheets of some kind. */
const BIFF8 = 0x0600;
const BIFF5 = 0x0500;
const GLOBALS = 0x0005;
/** A record's data is at most 8,224 bytes in BIFF8 (2,080 in BIFF5: the larger bound serves both). */
const MAX_RECORD_DATA = 8224;
/** Workbook starts tried: a file holds one or two (Book and Workbook), and a hostile one must not make this quadratic. */
const MAX_CANDIDATES = 8;
/** Sheets nest a chart's substream at most one deep; deeper nesting is not a workbook's. */
const MAX_DEPTH = 4;

/** What was read of a workbook cut short: the BIFF stream to convert, and its sheets by what became of them. */
export interface RecoveredWorkbook {
  /** The Workbook stream as far as it was read, each substream closed: a bare BIFF stream. */
  stream: Uint8Array;
  /** BIFF8 (Excel 97-2003) or BIFF5 (Excel 5/95). */
  version: 'biff8' | 'biff5';
  /** Sheets read whole, cut (read up to the cut), and lost (after the cut), by name in the workbook's order. */
  whole: string[];
  cut: string[];
  lost: string[];
}

const CUT_IN_GLOBALS: UnreadStreams = { unread: 'cut inside its globals, which hold its sheet list and shared strings' };

/**
 * The workbook of a compound file cut short: its Workbook (or Book) stream found by its content and read as far as
 * it is whole; unread, saying why, when one is found whose sheets cannot be read; undefined when none is found.
 */
export function recoverCutWorkbook(
  bytes: Uint8Array,
  sectors: CutFileSectors | undefined = cutFileSectors(bytes),
): RecoveredWorkbook | UnreadStreams | undefined {
  if (!sectors) return undefined;
  let best: RecoveredWorkbook | undefined;
  let unread: UnreadStreams | undefined;
  let tried = 0;
  for (let sector = 0; sector < sectors.count && tried < MAX_CANDIDATES; sector += 1) {
    const version = globalsBof(bytes, sectors.offsetOf(sector));
    if (version === undefined) continue;
    tried += 1;
    const read = walkWorkbook(readCutStream(bytes, sectors, sector), version);
    // The most sheets read whole, then cut; BIFF8 before BIFF5 on a tie (a file of both, Book and Workbook, keeps the
    // same sheets in each, BIFF8 the more faithfully).
    if ('unread' in read) unread ??= read;
    else if (!best || rank(read) > rank(best)) best = read;
  }
  return best ?? unread;
}

function rank(read: RecoveredWorkbook): number {
  return read.whole.length * 4 + read.cut.length * 2 + (read.version === 'biff8' ? 1 : 0);
}

/** The BIFF version of a workbook globals BOF record at `at`; undefined when there is none. */
function globalsBof(bytes: Uint8Array, at: number): 'biff8' | 'biff5' | undefined {
  if (at + 8 > bytes.length || readU16(bytes, at) !== RECORD.BOF) return undefined;
  const length = readU16(bytes, at + 2);
  const version = readU16(bytes, at + 4);
  if (readU16(bytes, at + 6) !== GLOBALS) return undefined;
  if (version === BIFF8 && length === 16) return 'biff8';
  if (version === BIFF5 && length === 8) return 'biff5';
  return undefined;
}

interface Sheet {
  name: string;
  start: number;
}

/**
 * The workbook a stream holds from its globals BOF: the substreams walked as far as they are whole, the stream to
 * convert; unread when the globals are cut or damaged, when it is encrypted, or when no sheet follows them.
 */
function walkWorkbook(stream: Uint8Array, version: 'biff8' | 'biff5'): RecoveredWorkbook | UnreadStreams {
  const sheets: Sheet[] = [];
  let at = 0;
  let depth = 0;
  // The globals: from the BOF to its EOF, every record whole.
  for (;;) {
    const record = recordAt(stream, at);
    if (!record) return CUT_IN_GLOBALS;
    if (record.type === RECORD.FILEPASS) return { unread: 'password-protected (encrypted), which the part lost is needed to read' };
    if (record.type === RECORD.BOF) depth += 1;
    if (record.type === RECORD.BOUNDSHEET && depth === 1) {
      const sheet = boundSheet(stream, record.data, record.length, version);
      if (sheet) sheets.push(sheet);
    }
    at = record.next;
    if (record.type === RECORD.EOF && --depth === 0) break;
    if (depth > MAX_DEPTH) return CUT_IN_GLOBALS;
  }
  const whole: string[] = [];
  const cut: string[] = [];
  const lost: string[] = [];
  let end = at;
  let closers = 0;
  for (const [index, sheet] of sheets.entries()) {
    // A sheet starts where the list says, after the one before it ended whole; anything else means the cut came
    // first, or the walk has left the stream (a sector out of order).
    if (cut.length > 0 || sheet.start !== end || !startsSheet(stream, end)) {
      lost.push(...sheets.slice(index).map((s) => s.name));
      break;
    }
    const walked = walkSubstream(stream, end);
    end = walked.end;
    if (walked.open === 0) whole.push(sheet.name);
    else {
      cut.push(sheet.name);
      closers = walked.open;
    }
  }
  if (whole.length === 0 && cut.length === 0) return { unread: 'cut before its first sheet' };
  const out = new Uint8Array(end + closers * 4);
  out.set(stream.subarray(0, end));
  for (let i = 0; i < closers; i += 1) out.set([RECORD.EOF & 0xff, RECORD.EOF >> 8, 0, 0], end + i * 4);
  return { stream: out, version, whole, cut, lost };
}

function startsSheet(stream: Uint8Array, at: number): boolean {
  const record = recordAt(stream, at);
  return record !== undefined && record.type === RECORD.BOF && record.length >= 8 && readU16(stream, at + 6) !== GLOBALS;
}

/** A sheet's substream from its BOF: where its whole records end, and how many substreams are still open there. */
function walkSubstream(stream: Uint8Array, start: number): { end: number; open: number } {
  let at = start;
  let depth = 0;
  for (;;) {
    const record = recordAt(stream, at);
    if (!record) return { end: at, open: depth };
    if (record.type === RECORD.BOF) {
      if (depth === MAX_DEPTH) return { end: at, open: depth };
      depth += 1;
    }
    at = record.next;
    if (record.type === RECORD.EOF && --depth === 0) return { end: at, open: 0 };
  }
}

/** The whole record at `at`: undefined past the stream's end, for one cut by it, or one longer than the format allows. */
function recordAt(stream: Uint8Array, at: number): { type: number; length: number; data: number; next: number } | undefined {
  if (at + 4 > stream.length) return undefined;
  const type = readU16(stream, at);
  const length = readU16(stream, at + 2);
  if (length > MAX_RECORD_DATA || at + 4 + length > stream.length) return undefined;
  return { type, length, data: at + 4, next: at + 4 + length };
}

/** A BOUNDSHEET record: where its sheet's BOF lies in the stream, and its name. */
function boundSheet(stream: Uint8Array, data: number, length: number, version: 'biff8' | 'biff5'): Sheet | undefined {
  if (length < 8) return undefined;
  const start = readU32(stream, data);
  const count = stream[data + 6]!;
  if (version === 'biff5') return { start, name: latin1Name(stream, data + 7, Math.min(count, length - 7)) };
  const wide = (stream[data + 7]! & 0x01) !== 0;
  const from = data + 8;
  const available = Math.min(count, Math.floor((length - 8) / (wide ? 2 : 1)));
  let name = '';
  for (let i = 0; i < available; i += 1) name += String.fromCharCode(wide ? readU16(stream, from + i * 2) : stream[from + i]!);
  return { start, name };
}

function latin1Name(stream: Uint8Array, from: number, count: number): string {
  let name = '';
  for (let i = 0; i < count; i += 1) name += String.fromCharCode(stream[from + i]!);
  return name;
}
