/**
 * The stage a thread's conversion is in (stage.ts), kept in memory the pool and the thread share instead of sent as
 * a message per stage: the pool reads it only when a document overruns its time or loses its thread, and a
 * message per stage cost each document several posts across threads for nothing in the common case.
 *
 * Layout: an Int32 sequence number (odd while the thread writes), an Int32 length, then the stage's UTF-16 code
 * units. A reader that sees the sequence change under it reads again.
 */
const HEADER_BYTES = 8;
/** Longer stages are cut (they are short phrases: "reading slide 12"). */
const MAX_UNITS = 120;

export function newStageBoard(): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER_BYTES + 2 * MAX_UNITS);
}

/** The thread's side: writes the stage it enters. */
export function writeStage(board: SharedArrayBuffer, stage: string): void {
  const header = new Int32Array(board, 0, 2);
  const units = new Uint16Array(board, HEADER_BYTES, MAX_UNITS);
  const length = Math.min(stage.length, MAX_UNITS);
  Atomics.add(header, 0, 1);
  for (let i = 0; i < length; i++) units[i] = stage.charCodeAt(i);
  Atomics.store(header, 1, length);
  Atomics.add(header, 0, 1);
}

/** The pool's side: the stage last written, or undefined when none was since the board was cleared. */
export function readStage(board: SharedArrayBuffer): string | undefined {
  const header = new Int32Array(board, 0, 2);
  const units = new Uint16Array(board, HEADER_BYTES, MAX_UNITS);
  for (let attempt = 0; attempt < 100; attempt++) {
    const before = Atomics.load(header, 0);
    if (before % 2 !== 0) continue;
    const length = Atomics.load(header, 1);
    const stage = String.fromCharCode(...units.subarray(0, length));
    if (Atomics.load(header, 0) === before) return length === 0 ? undefined : stage;
  }
  return undefined;
}

/** Before the thread starts a document: no stage yet. */
export function clearStage(board: SharedArrayBuffer): void {
  const header = new Int32Array(board, 0, 2);
  Atomics.add(header, 0, 1);
  Atomics.store(header, 1, 0);
  Atomics.add(header, 0, 1);
}
