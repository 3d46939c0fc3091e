/**
 * The record structure of a PowerPoint 97-2003 `PowerPoint Document` stream ([MS-PPT] 2.3.1): every record is an
 * 8-byte header (version and instance in the first 16 bits, type, length) and its data; version 0xF marks a
 * container whose data is more records. OfficeArt drawing records ([MS-ODRAW]) share the same header.
 *
 * Every walk is bounded: a record must fit inside its parent, containers nest at most MAX_DEPTH deep, and a document
 * gets a budget of records to visit (a hostile stream of tiny records cannot make the walk quadratic or endless).
 */
import { EngineError } from '../engine-error.js';
import { readU16, readU32 } from './bytes.js';

export interface PptRecord {
  type: number;
  instance: number;
  isContainer: boolean;
  /** Offset of the record's data in the stream. */
  start: number;
  /** Offset just past the record's data. */
  end: number;
}

export const RECORD_HEADER_SIZE = 8;
const MAX_DEPTH = 64;

export function damagedPresentation(cause: string): EngineError {
  return new EngineError('CORRUPT_DOCUMENT', `the PowerPoint document stream is damaged: ${cause}`);
}

/** The record at `at`, which must end by `limit`; null when no header fits there. */
export function recordAt(stream: Uint8Array, at: number, limit = stream.length): PptRecord | null {
  if (at < 0 || at + RECORD_HEADER_SIZE > limit) return null;
  const versionAndInstance = readU16(stream, at);
  const length = readU32(stream, at + 4);
  const start = at + RECORD_HEADER_SIZE;
  if (start + length > limit) return null;
  return {
    type: readU16(stream, at + 2),
    instance: versionAndInstance >> 4,
    isContainer: (versionAndInstance & 0x0f) === 0x0f,
    start,
    end: start + length,
  };
}

/** Shared by all walks of one document: how many records may still be visited. */
export class RecordBudget {
  constructor(private remaining: number) {}

  spend(): void {
    this.remaining -= 1;
    if (this.remaining < 0) {
      throw new EngineError('DOCUMENT_TOO_COMPLEX', 'the presentation has too many records to read');
    }
  }
}

/** The direct children of a container (a record that does not fit ends the list: the rest is damaged). */
export function childrenOf(stream: Uint8Array, parent: PptRecord, budget: RecordBudget): PptRecord[] {
  const children: PptRecord[] = [];
  if (!parent.isContainer) return children;
  let at = parent.start;
  while (at + RECORD_HEADER_SIZE <= parent.end) {
    const record = recordAt(stream, at, parent.end);
    if (record === null) break;
    budget.spend();
    children.push(record);
    at = record.end;
  }
  return children;
}

/**
 * Every record under `root` in document order (depth first, pre-order), without recursion; containers deeper than
 * MAX_DEPTH are not entered.
 */
export function descendants(stream: Uint8Array, root: PptRecord, budget: RecordBudget): PptRecord[] {
  const out: PptRecord[] = [];
  const stack: { record: PptRecord; depth: number }[] = childrenOf(stream, root, budget)
    .reverse()
    .map((record) => ({ record, depth: 1 }));
  while (stack.length > 0) {
    const { record, depth } = stack.pop() as { record: PptRecord; depth: number };
    out.push(record);
    if (record.isContainer && depth < MAX_DEPTH) {
      const children = childrenOf(stream, record, budget);
      for (let index = children.length - 1; index >= 0; index -= 1) stack.push({ record: children[index] as PptRecord, depth: depth + 1 });
    }
  }
  return out;
}
