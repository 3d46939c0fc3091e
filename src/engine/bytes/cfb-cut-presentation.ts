/**
 * A PowerPoint 97-2003 presentation cut short (an interrupted copy or download), read from its `PowerPoint Document`
 * stream when that survived the cut whole.
 *
 * PowerPoint writes the compound file's directory, and most of its allocation table, at the end: a file cut anywhere
 * has lost every stream's name and place. The slides are all in the `PowerPoint Document` stream, which is written
 * before the pictures and the property sets (a thumbnail among them) that make most of a file's bytes, and it can be
 * told by its content:
 * - it begins, at a sector's start, with the DocumentContainer's record header (version 0xF, type 0x03E8);
 * - its sectors are those the allocation table chains from there, as far as the table survives, and the sectors
 *   that follow in the file where it does not;
 * - it is a run of top-level records (type, length, data), each of a type the format has (0x03E8-0x2F14), and ends
 *   with the edit that was saved last (UserEditAtom): the converter finds the slides from that edit when no
 *   `Current User` stream points at it (ppt-persist.ts).
 * The stream is taken up to the end of its last whole edit: the presentation as saved last before the cut (one saved
 * incrementally, whose newest edit the cut went through, as it was at the edit before). One cut before any edit was
 * saved whole has lost the table of where its slides are, and stays refused: rebuilding it from the records' order
 * would be a guess, since a writer numbers its objects in an order of its own. So does one whose records stop being
 * records before it (a sector out of order where the allocation table was lost).
 */
import { readU16, readU32 } from './binary.js';
import { cutFileSectors, foundStreams, readCutStream, type CompoundFile, type CutFileSectors, type UnreadStreams } from './cfb.js';

const RT_DOCUMENT = 0x03e8;
const RT_USER_EDIT_ATOM = 0x0ff5;
/** [MS-PPT] 2.13.24: the record types a top-level record of the stream has lie in this range. */
const RT_FIRST = 0x03e8;
const RT_LAST = 0x2f14;
/** A container's record version. */
const CONTAINER = 0xf;
const HEADER = 8;
/** Stream starts tried: a file holds one, and a hostile one must not make this quadratic. */
const MAX_CANDIDATES = 8;

/** Why the slides of a presentation found cannot be read. */
const CUT_IN_SLIDES: UnreadStreams = {
  unread: 'cut inside its PowerPoint Document stream, before the edit record saved last in it, which says where its slides are',
};

/**
 * The `PowerPoint Document` stream of a presentation cut short after it, as a compound file holding it; unread when
 * the stream was cut (or its records stop before its last edit); undefined when no presentation is found.
 */
export function recoverCutPresentation(
  bytes: Uint8Array,
  sectors: CutFileSectors | undefined = cutFileSectors(bytes),
): CompoundFile | UnreadStreams | undefined {
  if (!sectors) return undefined;
  let tried = 0;
  for (let sector = 0; sector < sectors.count && tried < MAX_CANDIDATES; sector += 1) {
    if (!startsDocument(bytes, sectors.offsetOf(sector))) continue;
    tried += 1;
    const stream = readCutStream(bytes, sectors, sector);
    const end = lastEditEnd(stream);
    if (end !== undefined) return foundStreams([['PowerPoint Document', stream.subarray(0, end)]]);
  }
  return tried > 0 ? CUT_IN_SLIDES : undefined;
}

function startsDocument(bytes: Uint8Array, at: number): boolean {
  return at + HEADER <= bytes.length && (readU16(bytes, at) & 0xf) === CONTAINER && readU16(bytes, at + 2) === RT_DOCUMENT;
}

/** Where the stream's last whole UserEditAtom ends, its top-level records walked from the start; undefined when there is none. */
function lastEditEnd(stream: Uint8Array): number | undefined {
  let end: number | undefined;
  for (let at = 0; at + HEADER <= stream.length; ) {
    const type = readU16(stream, at + 2);
    const next = at + HEADER + readU32(stream, at + 4);
    if (type < RT_FIRST || type > RT_LAST || next > stream.length) break;
    if (type === RT_USER_EDIT_ATOM) end = next;
    at = next;
  }
  return end;
}
