/**
 * Turns a source's relative path (a local path or an S3 key, possibly hostile) into the relative path its
 * outputs are stored under. The result can never leave the output root, on a file system or as a key suffix:
 *
 * - `\` is a separator too (a Windows path or a hostile key must not smuggle `..\` through);
 * - NUL, C0/C1 control characters and unpaired UTF-16 surrogates become `_`, so names are printable and have
 *   exactly one UTF-8 encoding;
 * - leading separators and a drive letter (`C:`) are removed: the path is always relative;
 * - empty and `.` segments are dropped;
 * - `..` (and any segment made only of dots, which Windows may trim to `..`) becomes as many `_`: it is kept
 *   visible rather than dropped, so `a/../b.pdf` (→ `a/__/b.pdf`) does not overwrite the outputs of `a/b.pdf`,
 *   and nothing is ever resolved upward;
 * - a segment over 200 bytes of UTF-8 is cut, keeping its extension and adding a hash of the whole segment, so
 *   two long names sharing a prefix stay apart (and `<name>.blocks.json` still fits the usual 255-byte limit);
 * - the whole path is bounded (MAX_SAFE_PATH_BYTES): a deeper tree keeps its leading folders and the file name,
 *   and the folders that do not fit are replaced by one hashed folder;
 * - `_docmill` at the top is the store's own folder: a source folder of that name (any case, as some file
 *   systems ignore case) gets one more `_`, and so does `_docmill_`, `_docmill__`..., so the mapping stays
 *   one-to-one within that family.
 *
 * A path with no segment other than empty and dot-only ones (`..`, `./..`, `/`, '') is refused: STORE_UNSAFE_PATH.
 *
 * The function is pure and deterministic: the same input always gives the same output, on every platform.
 * Different inputs can still meet (`a\b.pdf` and `a/b.pdf`); sources yield '/'-separated paths, so this is
 * limited to names that were hostile or unusual to begin with.
 */
import { createHash } from 'node:crypto';
import { RECORDS_FOLDER } from '../common/records-folder.js';
import { UnsafePathError } from './store-errors.js';

/** The store's own top-level folder (state, index, manifest); no source path may map into it. */
export const RESERVED_TOP_LEVEL = RECORDS_FOLDER;

/** Longest segment, in UTF-8 bytes. Leaves room for `.blocks.json` and the 255-byte name limit of most file systems. */
export const MAX_SEGMENT_BYTES = 200;

/**
 * Longest result, in UTF-8 bytes. S3 keys are at most 1024 bytes: this leaves room for the prefix, the
 * `_docmill/state/` folder and the output suffixes.
 */
export const MAX_SAFE_PATH_BYTES = 768;

const HASH_HEX_LENGTH = 12;
/** Extensions longer than this are not worth keeping whole when a name is cut. */
const MAX_KEPT_EXTENSION_BYTES = 32;

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;
const UNPAIRED_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const DRIVE_PREFIX = /^[A-Za-z]:/;
const ONLY_DOTS = /^\.+$/;
const RESERVED_FAMILY = new RegExp(`^${RESERVED_TOP_LEVEL}_*$`, 'i');

export function safeRelativePath(input: string): string {
  const rawSegments = splitSegments(input).map(printableSegment);
  if (!rawSegments.some((segment) => segment !== '' && !ONLY_DOTS.test(segment))) {
    throw new UnsafePathError(input, 'it names nothing but separators, "." and ".."');
  }
  const segments = rawSegments.map(safeSegment).filter((segment): segment is string => segment !== undefined);
  const [first, ...rest] = segments;
  const unreserved = RESERVED_FAMILY.test(first!) ? [`${first}_`, ...rest] : segments;
  return boundPathLength(unreserved);
}

/** Separators are `/` and `\`; a leading drive letter goes with the leading separators. */
function splitSegments(input: string): string[] {
  const slashed = input.replace(/\\/g, '/').replace(/^\/+/, '').replace(DRIVE_PREFIX, '');
  return slashed.split('/');
}

/** The segment with control characters and unpaired surrogates replaced: one UTF-8 encoding, printable. */
function printableSegment(raw: string): string {
  return raw.replace(UNPAIRED_SURROGATES, '_').replace(CONTROL_CHARACTERS, '_');
}

/** The safe form of a printable segment, or undefined for a segment that is dropped (empty or `.`). */
function safeSegment(segment: string): string | undefined {
  if (segment === '' || segment === '.') return undefined;
  if (ONLY_DOTS.test(segment)) return '_'.repeat(segment.length);
  if (utf8Length(segment) <= MAX_SEGMENT_BYTES) return segment;
  return shortenSegment(segment);
}

/** `<start of the name>~<hash of the whole name><extension>`, at most MAX_SEGMENT_BYTES. */
function shortenSegment(segment: string): string {
  const extension = extensionOf(segment);
  const stem = segment.slice(0, segment.length - extension.length);
  const tag = `~${shortHash(segment)}`;
  return truncateUtf8(stem, MAX_SEGMENT_BYTES - utf8Length(tag) - utf8Length(extension)) + tag + extension;
}

/** The last `.ext` of a name (not a leading dot), when short enough to keep whole. */
function extensionOf(segment: string): string {
  const dot = segment.lastIndexOf('.');
  if (dot <= 0) return '';
  const extension = segment.slice(dot);
  return utf8Length(extension) <= MAX_KEPT_EXTENSION_BYTES ? extension : '';
}

/**
 * Keeps the path within MAX_SAFE_PATH_BYTES. The file name (last segment, already at most 200 bytes) is kept
 * whole, leading folders are kept while they fit, and the folders that do not are replaced by one folder named
 * after a hash of all the folders, so two deep trees differing only in their tail stay apart.
 */
function boundPathLength(segments: string[]): string {
  const joined = segments.join('/');
  if (utf8Length(joined) <= MAX_SAFE_PATH_BYTES) return joined;
  const fileName = segments[segments.length - 1]!;
  const folders = segments.slice(0, -1);
  const hashedFolder = `~${shortHash(folders.join('/'))}`;
  const budget = MAX_SAFE_PATH_BYTES - utf8Length(fileName) - utf8Length(hashedFolder) - 2;
  const kept: string[] = [];
  let used = 0;
  for (const folder of folders) {
    const cost = utf8Length(folder) + 1;
    if (used + cost > budget) break;
    kept.push(folder);
    used += cost;
  }
  return [...kept, hashedFolder, fileName].join('/');
}

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes, never splitting a character. */
function truncateUtf8(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const character of text) {
    const size = utf8Length(character);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += character.length;
  }
  return text.slice(0, end);
}

function shortHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, HASH_HEX_LENGTH);
}

function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
