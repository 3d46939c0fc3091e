/**
 * Where the objects of a PowerPoint 97-2003 document are ([MS-PPT] 2.1.2): the `Current User` stream points at the
 * newest UserEditAtom in the `PowerPoint Document` stream; each UserEditAtom points at its PersistDirectoryAtom
 * (persist object id → stream offset) and at the previous edit (incremental saves append a new edit each time).
 * The directory is the union of all edits, newer entries winning. When `Current User` is missing or points nowhere,
 * the edits are found by walking the stream's top-level records instead.
 *
 * Also decides whether the document is encrypted (RC4 CryptoAPI): a Current User header token of 0xF3D1C4DF, an
 * edit naming an encryption session (CryptSession10Container), or an `EncryptedSummary` stream.
 */
import { EngineError } from '../engine-error.js';
import { readU32 } from './bytes.js';
import { damagedPresentation, recordAt, type RecordBudget } from './ppt-records.js';

const RT_USER_EDIT_ATOM = 0x0ff5;
const RT_PERSIST_DIRECTORY_ATOM = 0x1772;
const RT_CRYPT_SESSION = 0x2f14;
const TOKEN_PLAIN = 0xe391c05f;
const TOKEN_ENCRYPTED = 0xf3d1c4df;
/** Edits followed at most (a document saved incrementally thousands of times is not a real case). */
const MAX_EDITS = 4096;
const MAX_PERSIST_ENTRIES = 1_000_000;

export interface PersistDirectory {
  /** Stream offset of a persist object (undefined when the directory does not list it). */
  offsetOf(persistId: number): number | undefined;
  /** Persist id of the DocumentContainer. */
  documentRef: number;
}

const encrypted = () =>
  new EngineError('ENCRYPTED_DOCUMENT', 'the PowerPoint presentation is password-protected (encrypted); remove the password and try again');

export function readPersistDirectory(stream: Uint8Array, currentUser: Uint8Array | null, budget: RecordBudget): PersistDirectory {
  let newest = -1;
  if (currentUser !== null && currentUser.length >= 20) {
    const token = readU32(currentUser, 12);
    if (token === TOKEN_ENCRYPTED) throw encrypted();
    if (token === TOKEN_PLAIN) newest = readU32(currentUser, 16);
  }
  if (recordAt(stream, newest)?.type !== RT_USER_EDIT_ATOM) newest = lastTopLevelEdit(stream, budget);
  if (newest < 0) throw damagedPresentation('it has no edit record (UserEditAtom), so its slides cannot be found');

  const offsets = new Map<number, number>();
  const seen = new Set<number>();
  let documentRef = -1;
  let sessionRef = 0;
  for (let at = newest; at > 0 || (at === 0 && seen.size === 0); ) {
    if (seen.has(at) || seen.size >= MAX_EDITS) break;
    seen.add(at);
    const edit = recordAt(stream, at);
    if (edit === null || edit.type !== RT_USER_EDIT_ATOM || edit.end - edit.start < 28) break;
    if (documentRef < 0) {
      documentRef = readU32(stream, edit.start + 16);
      if (edit.end - edit.start >= 32) sessionRef = readU32(stream, edit.start + 28);
    }
    addEntries(stream, readU32(stream, edit.start + 12), offsets);
    at = readU32(stream, edit.start + 8);
  }
  if (sessionRef !== 0) {
    const session = offsets.get(sessionRef);
    if (session !== undefined && recordAt(stream, session)?.type === RT_CRYPT_SESSION) throw encrypted();
  }
  if (documentRef < 0) throw damagedPresentation('its edit record (UserEditAtom) is unreadable');
  return { offsetOf: (persistId) => offsets.get(persistId), documentRef };
}

/** PersistDirectoryEntry: persistId (20 bits) and count (12 bits), then `count` offsets for consecutive ids. */
function addEntries(stream: Uint8Array, at: number, offsets: Map<number, number>): void {
  const directory = recordAt(stream, at);
  if (directory === null || directory.type !== RT_PERSIST_DIRECTORY_ATOM) return;
  let position = directory.start;
  while (position + 4 <= directory.end && offsets.size < MAX_PERSIST_ENTRIES) {
    const header = readU32(stream, position);
    const first = header & 0xfffff;
    const count = header >>> 20;
    position += 4;
    for (let index = 0; index < count && position + 4 <= directory.end; index += 1, position += 4) {
      // Older edits come later in the walk: an id already placed by a newer edit keeps its offset.
      if (!offsets.has(first + index)) offsets.set(first + index, readU32(stream, position));
    }
  }
}

/** The offset of the last UserEditAtom among the stream's top-level records (-1 when there is none). */
function lastTopLevelEdit(stream: Uint8Array, budget: RecordBudget): number {
  let last = -1;
  let at = 0;
  while (at + 8 <= stream.length) {
    const record = recordAt(stream, at);
    if (record === null) break;
    budget.spend();
    if (record.type === RT_USER_EDIT_ATOM) last = at;
    if (record.type === RT_CRYPT_SESSION) throw encrypted();
    at = record.end;
  }
  return last;
}
