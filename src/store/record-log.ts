/**
 * A local store's document states as one append-only file, `_docmill/records.jsonl`, where a state file and a
 * content-index file a document cost two names, an inode and four renames and links each (BENCHMARKS.md, section 15).
 * Each line is one record, appended whole by one O_APPEND write (FsStore.appendLine), so the worker processes of
 * one store share the file as they share the manifest:
 *
 *   {"v":1,"state":{...}}                                   a document's state: the latest for its path wins, and
 *                                                           the content index points at it (unless it only marks the
 *                                                           path's outputs kept after a removal: `removedAt`)
 *   {"v":1,"forget":"<path>","sha256":"…","optionsFingerprint":"…"}
 *                                                           the path's state is gone (its outputs deleted), and the
 *                                                           content's entry with it when it pointed at that path
 *
 * The file is read once from the start, then from where it was left before each lookup (the lines other processes
 * and this one appended meanwhile). In memory it is two OffsetIndexes, by path and by content and options, each
 * giving the offset of a record; a record is read from the file when asked for, so memory stays about 80 bytes a
 * document. Reads are synchronous: a few hundred bytes a lookup from the page cache, cheaper than a trip to libuv's
 * threads, and a long catch-up (a store's first lookup) gives the event loop a turn between megabytes.
 *
 * Records are not flushed one by one: the store's group commit flushes the file system (syncfs) each pass, the log
 * with it. A power loss can still leave the log's end torn or filled with zeros; later records are written after it.
 * Each record line begins with `{"v":1,` — a sequence that JSON text can hold only where an object begins (a quote
 * inside a string is escaped) — so a reader takes a line from its last such start: what a torn write or zeros left
 * in front of a whole record never hides it, and a line with no whole record is no record.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { setImmediate as turn } from 'node:timers/promises';
import { OffsetIndex } from './offset-index.js';
import type { DocumentState } from './output-store.js';
import { stateRecordFrom } from './records.js';
import { StoreReadError } from './store-errors.js';

const START = Buffer.from('{"v":1,');
const NEWLINE = 0x0a;
/** Bytes read at once while catching up; between two such reads the event loop has a turn. */
const CATCH_UP_BYTES = 4 * 1024 * 1024;
/** A record's first read; a longer one (a document with many pictures) is read again whole. */
const RECORD_BYTES = 4096;

export interface RecordLogOptions {
  /** The log's absolute path. */
  path: string;
  /** Its key, for errors. */
  key: string;
  /** Appends one line whole (an O_APPEND write), making the file first when there is none. */
  append(line: string): Promise<void>;
}

type LogRecord = { v: 1; state: DocumentState } | { v: 1; forget: string; sha256: string; optionsFingerprint: string };

export class RecordLog {
  readonly #options: RecordLogOptions;
  readonly #byPath = new OffsetIndex();
  readonly #byContent = new OffsetIndex();
  #fd: number | undefined;
  /** Bytes of the file read and indexed: every whole line before this offset. */
  #end = 0;
  /** The catch-up under way: each lookup reads after the one before it has, so it sees every line appended before it. */
  #reading: Promise<void> = Promise.resolve();

  constructor(options: RecordLogOptions) {
    this.#options = options;
  }

  /** The state recorded last for `relativePath`, unless a removal forgot it since; undefined when the log has none. */
  async state(relativePath: string): Promise<DocumentState | undefined> {
    await this.#catchUp();
    const offset = this.#byPath.get(relativePath);
    if (offset === undefined) return undefined;
    const state = this.#stateAt(offset);
    return state?.relativePath === relativePath ? state : undefined;
  }

  /**
   * The state that last recorded this content converted with these options, while its path's outputs are still of
   * it: the path converted again since from other content (or with other options) holds that conversion instead.
   */
  async byContent(sha256: string, optionsFingerprint: string): Promise<DocumentState | undefined> {
    await this.#catchUp();
    const offset = this.#byContent.get(contentKey(sha256, optionsFingerprint));
    if (offset === undefined) return undefined;
    const state = this.#stateAt(offset);
    if (state?.sha256 !== sha256 || state.optionsFingerprint !== optionsFingerprint) return undefined;
    // Most often the path's own current record (a removal's mark that kept the outputs is a later one: read it).
    const current = this.#byPath.get(state.relativePath);
    const now = current === offset ? state : current === undefined ? undefined : this.#stateAt(current);
    return now?.relativePath === state.relativePath && now.sha256 === sha256 && now.optionsFingerprint === optionsFingerprint ? state : undefined;
  }

  /** Records `state` as its path's (with `removedAt`: the mark of a removal that kept the outputs, by path only). */
  async write(state: DocumentState): Promise<void> {
    await this.#options.append(`${JSON.stringify({ v: 1, state } satisfies LogRecord)}\n`);
  }

  /** The path's state is gone, and the content index's entry with it when it led to this path. */
  async forget(state: Pick<DocumentState, 'relativePath' | 'sha256' | 'optionsFingerprint'>): Promise<void> {
    const record: LogRecord = { v: 1, forget: state.relativePath, sha256: state.sha256, optionsFingerprint: state.optionsFingerprint };
    await this.#options.append(`${JSON.stringify(record)}\n`);
  }

  /** Every path's current state, in the order they were recorded. */
  async *states(): AsyncGenerator<DocumentState> {
    await this.#catchUp();
    const end = this.#end;
    for (let from = 0; from < end; ) {
      const lines = this.#wholeLinesFrom(from, end);
      if (lines.length === 0) return; // the file was cut since it was read (by hand)
      const found: DocumentState[] = [];
      forEachRecord(lines, from, (record, offset) => {
        if ('state' in record && this.#byPath.get(record.state.relativePath) === offset) found.push(this.#checked(record.state));
      });
      from += lines.length;
      yield* found;
      await turn();
    }
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  #catchUp(): Promise<void> {
    const reading = this.#reading.then(() => this.#readNewLines());
    this.#reading = reading.catch(() => undefined);
    return reading;
  }

  async #readNewLines(): Promise<void> {
    const size = this.#size();
    if (size < this.#end) {
      // Shorter than what was read: the file was replaced or cut (by hand); read it anew.
      this.#byPath.clear();
      this.#byContent.clear();
      this.#end = 0;
    }
    while (this.#end < size) {
      const from = this.#end;
      const lines = this.#wholeLinesFrom(from, size);
      if (lines.length === 0) return; // a line still being written, or a torn end: read once a newline follows it
      forEachRecord(lines, from, (record, offset) => this.#index(record, offset));
      this.#end = from + lines.length;
      if (this.#end < size) await turn();
    }
  }

  /**
   * Whole lines from `from` on, within the file's first `limit` bytes: as many as CATCH_UP_BYTES hold, or one longer
   * line. Empty when no newline ends a line before `limit`.
   */
  #wholeLinesFrom(from: number, limit: number): Buffer {
    const chunk = this.#read(from, Math.min(limit - from, CATCH_UP_BYTES));
    const whole = chunk.lastIndexOf(NEWLINE) + 1;
    if (whole > 0 || chunk.length < CATCH_UP_BYTES) return chunk.subarray(0, whole);
    for (let at = from + CATCH_UP_BYTES; at < limit; at += CATCH_UP_BYTES) {
      const newline = this.#read(at, Math.min(CATCH_UP_BYTES, limit - at)).indexOf(NEWLINE);
      if (newline !== -1) return this.#read(from, at + newline + 1 - from);
    }
    return chunk.subarray(0, 0);
  }

  #index(record: LogRecord, offset: number): void {
    if ('state' in record) {
      this.#byPath.set(record.state.relativePath, offset);
      if (record.state.removedAt === undefined) this.#byContent.set(contentKey(record.state.sha256, record.state.optionsFingerprint), offset);
      return;
    }
    this.#byPath.delete(record.forget);
    const key = contentKey(record.sha256, record.optionsFingerprint);
    const indexed = this.#byContent.get(key);
    if (indexed !== undefined && this.#pathAt(indexed) === record.forget) this.#byContent.delete(key);
  }

  /** The path of the state recorded at `offset`, unchecked (a damaged record is reported when it is asked for). */
  #pathAt(offset: number): string | undefined {
    const record = this.#recordAt(offset);
    return record !== undefined && 'state' in record ? record.state.relativePath : undefined;
  }

  /** The state recorded at `offset`, checked against its shape; undefined when no state record starts there. */
  #stateAt(offset: number): DocumentState | undefined {
    const record = this.#recordAt(offset);
    return record !== undefined && 'state' in record ? this.#checked(record.state) : undefined;
  }

  #recordAt(offset: number): LogRecord | undefined {
    let length = RECORD_BYTES;
    for (;;) {
      const bytes = this.#read(offset, length);
      const newline = bytes.indexOf(NEWLINE);
      if (newline === -1 && bytes.length === length) {
        length *= 4;
        continue;
      }
      return parseRecord(bytes, 0, newline === -1 ? bytes.length : newline);
    }
  }

  /** A state as read, checked against its whole shape (indexing looked at three fields only). */
  #checked(state: DocumentState): DocumentState {
    return stateRecordFrom(state, this.#options.key);
  }

  #size(): number {
    const fd = this.#open();
    try {
      return fd === undefined ? 0 : fstatSync(fd).size;
    } catch (error) {
      throw new StoreReadError(this.#options.key, error);
    }
  }

  #read(from: number, length: number): Buffer {
    const fd = this.#open();
    if (fd === undefined) return Buffer.alloc(0);
    const bytes = Buffer.allocUnsafe(length);
    try {
      const read = readSync(fd, bytes, 0, length, from);
      return bytes.subarray(0, read);
    } catch (error) {
      throw new StoreReadError(this.#options.key, error);
    }
  }

  /** The read descriptor, opened once the file exists (another process may make it after this one's first look). */
  #open(): number | undefined {
    if (this.#fd !== undefined) return this.#fd;
    try {
      this.#fd = openSync(this.#options.path, 'r');
      return this.#fd;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new StoreReadError(this.#options.key, error);
    }
  }
}

function contentKey(sha256: string, optionsFingerprint: string): string {
  return `${sha256}.${optionsFingerprint}`;
}

/** Calls `found` with each record on the whole lines `lines` and the file offset it starts at (`base` + its place). */
function forEachRecord(lines: Buffer, base: number, found: (record: LogRecord, offset: number) => void): void {
  for (let start = 0; start < lines.length; ) {
    let end = lines.indexOf(NEWLINE, start);
    if (end === -1) end = lines.length;
    const at = end - start >= START.length ? lines.lastIndexOf(START, end - START.length) : -1;
    if (at >= start) {
      const record = parseRecord(lines, at, end);
      if (record !== undefined) found(record, base + at);
    }
    start = end + 1;
  }
}

/** The record in bytes [start, end), or undefined for a torn or foreign line. Only what indexing needs is checked here. */
function parseRecord(bytes: Buffer, start: number, end: number): LogRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8', start, end));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (record.v !== 1) return undefined;
  if (typeof record.state === 'object' && record.state !== null) {
    const state = record.state as Record<string, unknown>;
    const shaped = typeof state.relativePath === 'string' && typeof state.sha256 === 'string' && typeof state.optionsFingerprint === 'string';
    return shaped ? (record as LogRecord) : undefined;
  }
  const forgets = typeof record.forget === 'string' && typeof record.sha256 === 'string' && typeof record.optionsFingerprint === 'string';
  return forgets ? (record as LogRecord) : undefined;
}
