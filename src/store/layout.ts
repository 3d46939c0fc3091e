/**
 * Where everything lives below a store root, shared by the fs and S3 stores so both lay out outputs the same way:
 *
 *   <safe path><OUTPUT_SUFFIX>                     outputs, mirroring the source tree (a/b/report.pdf.md ...)
 *   <safe path>.assets/<name>                      the document's pictures (a/b/report.pdf.assets/image-1.png)
 *   _docmill/state/<safe path>.json                what was converted from a source path, for skipping (S3 store;
 *                                                  the fs store before 2026-11-26, still read there)
 *   _docmill/index/<sha256>/<fingerprint>.json     the same state, found by content and options (S3 store; the fs
 *                                                  store before 2026-11-25, still read there)
 *   _docmill/index/<sha256[0..2]>/<sha256>.<fingerprint>.json
 *                                                  the same, fs store on 2026-11-25, still read there
 *   _docmill/records.jsonl                         fs store: every state, appended (record-log.ts)
 *   _docmill/ranges/<sha256>/<fingerprint>/<first>-<last>.pdf, .json
 *                                                  a long PDF's page ranges and their parse results, until merged
 *   _docmill/manifest.jsonl, failures.jsonl        fs store: one line per document, appended
 *   _docmill/manifest/<segment>.jsonl, failures/   S3 store: the same lines in segments (no appends on S3)
 *
 * Keys are '/'-separated and relative to the root; the stores turn them into paths or prefixed object keys.
 */
import { OUTPUT_SUFFIX, type AssetFile, type DocumentOutputs, type DocumentState, type OutputKind } from './output-store.js';
import { RESERVED_TOP_LEVEL, safeRelativePath } from './safe-path.js';
import { InvalidRecordError, StoreWriteError, UnsafePathError } from './store-errors.js';

export const META_DIR = RESERVED_TOP_LEVEL;
export const MANIFEST_KEY = `${META_DIR}/manifest.jsonl`;
export const FAILURES_KEY = `${META_DIR}/failures.jsonl`;
export const RECORDS_KEY = `${META_DIR}/records.jsonl`;
export const MANIFEST_SEGMENTS_DIR = `${META_DIR}/manifest/`;
export const FAILURE_SEGMENTS_DIR = `${META_DIR}/failures/`;

/** Output kinds in the order they are written and reported: every key of OUTPUT_SUFFIX, so a new kind is never missed. */
export const OUTPUT_KINDS: readonly OutputKind[] = Object.keys(OUTPUT_SUFFIX) as OutputKind[];

const SHA256_HEX = /^[0-9a-f]{64}$/;
const FINGERPRINT_HEX = /^[0-9a-f]{8,64}$/;

export interface OutputFile {
  kind: OutputKind;
  key: string;
  /** Text, or for chunks their JSON Lines already in UTF-8 (jsonLines). */
  body: string | Uint8Array;
  contentType: string;
}

export function outputKey(relativePath: string, kind: OutputKind): string {
  return safeRelativePath(relativePath) + OUTPUT_SUFFIX[kind];
}

/** The folder of a document's pictures, beside its Markdown: `<safe path>.assets/`. */
export function assetsFolder(relativePath: string): string {
  return `${safeRelativePath(relativePath)}${ASSETS_SUFFIX}`;
}

const ASSETS_SUFFIX = '.assets/';
/** A picture's name: made by docmill (`image-1.png`), checked all the same so no name can leave its folder. */
const ASSET_NAME = /^[a-z0-9][a-z0-9_-]{0,99}\.[a-z0-9]{1,8}$/i;

export function assetKey(relativePath: string, name: string): string {
  if (!ASSET_NAME.test(name)) throw new UnsafePathError(name, 'a picture is named with letters, digits, "-", "_" and one extension');
  return assetsFolder(relativePath) + name;
}

/**
 * How the document's Markdown links to one of its pictures: relative to the Markdown, which lies in the same folder
 * as the pictures' folder, its name percent-encoded where a Markdown link or a URL would break (spaces, brackets).
 */
export function assetReference(relativePath: string, name: string): string {
  const folder = assetsFolder(relativePath).slice(0, -1);
  return relativeAssetLink(folder.slice(folder.lastIndexOf('/') + 1), name);
}

/** The link from a Markdown file to `name` in the folder `folderName` beside it. */
export function relativeAssetLink(folderName: string, name: string): string {
  return `${encodeLinkSegment(folderName)}/${name}`;
}

function encodeLinkSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[()!'*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The pictures' files: keys below the document's assets folder, bytes as they are. */
export function assetFiles(relativePath: string, assets: readonly AssetFile[]): Array<{ key: string; body: Uint8Array }> {
  return assets.map((asset) => ({ key: assetKey(relativePath, asset.name), body: asset.bytes }));
}

/**
 * Every key an output of `relativePath` may have, whichever kinds its conversion wrote: one per kind the layout
 * knows (OUTPUT_SUFFIX), so deleting a source's outputs covers a kind added later without a change here.
 */
export function documentOutputKeys(relativePath: string): string[] {
  return OUTPUT_KINDS.map((kind) => outputKey(relativePath, kind));
}

/**
 * Whether a folder (a key prefix without its trailing '/', '' for the root) stays when a deletion empties it: the
 * root, `_docmill/` and the bookkeeping folders directly in it (state/, index/, ranges/, tmp/, manifest segments)
 * stay; any folder below them, and any folder of the mirrored source tree, goes with its last file.
 */
export function keepsEmptyFolder(folder: string): boolean {
  return folder === '' || folder === META_DIR || parentFolder(folder) === META_DIR;
}

/** The folder holding a key or folder: `a/b` for `a/b/c.md`, '' (the root) for a top-level name. */
export function parentFolder(key: string): string {
  const slash = key.lastIndexOf('/');
  return slash === -1 ? '' : key.slice(0, slash);
}

/** The folder of the state records (one per converted source path). */
export const STATE_DIR = `${META_DIR}/state/`;

export function stateKey(relativePath: string): string {
  return `${STATE_DIR}${safeRelativePath(relativePath)}.json`;
}

/** The index key; both parts become path segments, so they must be plain lowercase hex. */
export function indexKey(sha256: string, optionsFingerprint: string): string {
  checkContentKey(sha256, optionsFingerprint);
  return `${META_DIR}/index/${sha256}/${optionsFingerprint}.json`;
}

/**
 * The index key in 256 folders by the hash's first two digits: a local store makes a folder once for many documents,
 * where indexKey's folder a content makes one for each (a directory inode and block, the most a small document's
 * records cost on disk).
 */
export function shardedIndexKey(sha256: string, optionsFingerprint: string): string {
  checkContentKey(sha256, optionsFingerprint);
  return `${META_DIR}/index/${sha256.slice(0, 2)}/${sha256}.${optionsFingerprint}.json`;
}

function checkContentKey(sha256: string, optionsFingerprint: string): void {
  if (!SHA256_HEX.test(sha256)) throw new UnsafePathError(sha256, 'a content hash must be 64 lowercase hex digits');
  if (!FINGERPRINT_HEX.test(optionsFingerprint)) {
    throw new UnsafePathError(optionsFingerprint, 'an options fingerprint must be lowercase hex digits');
  }
}

export const RANGES_DIR = `${META_DIR}/ranges/`;

/** A work file of one page range of a long PDF: its bytes (`pdf`) or its checkpointed parse result (`json`). */
export function rangeKey(sha256: string, optionsFingerprint: string, first: number, last: number, kind: 'pdf' | 'json'): string {
  checkContentKey(sha256, optionsFingerprint);
  const folder = `${RANGES_DIR}${sha256}/${optionsFingerprint}`;
  if (!Number.isInteger(first) || !Number.isInteger(last) || first < 1 || last < first) {
    throw new UnsafePathError(`${first}-${last}`, 'a page range is two page numbers, first <= last');
  }
  return `${folder}/${first}-${last}.${kind}`;
}

/** Work keys are the only keys below `_docmill/` a caller may name. */
export function checkWorkKey(key: string): string {
  if (!key.startsWith(RANGES_DIR) || key.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw new UnsafePathError(key, `a work file must be below ${RANGES_DIR}`);
  }
  return key;
}

/** The files to write for one document: each present output, serialised, under the layout of `relativePath`. */
export function outputFiles(relativePath: string, outputs: DocumentOutputs): OutputFile[] {
  const files: OutputFile[] = [];
  for (const kind of OUTPUT_KINDS) {
    const value = outputs[kind];
    if (value === undefined) continue;
    const key = outputKey(relativePath, kind);
    const body = kind === 'markdown' ? String(value) : kind === 'chunks' ? jsonLines(value as readonly unknown[], key) : prettyJson(value, key);
    files.push({ kind, key, body, contentType: contentTypeOf(key) });
  }
  return files;
}

/**
 * The outputs a state lists, each paired with its kind (`asset` for a picture, with its name). Only keys in the layout
 * of the state's own path are accepted: a state edited to point at `_docmill/...` or another document's files is
 * refused, not copied.
 */
export function recordedOutputs(state: DocumentState): RecordedOutput[] {
  const byKey = new Map(OUTPUT_KINDS.map((kind) => [outputKey(state.relativePath, kind), kind] as const));
  const assets = assetsFolder(state.relativePath);
  return state.outputs.map((key): RecordedOutput => {
    const kind = byKey.get(key);
    if (kind === undefined && key.startsWith(assets) && ASSET_NAME.test(key.slice(assets.length))) {
      return { kind: 'asset', key, name: key.slice(assets.length) };
    }
    if (kind === undefined) {
      throw new InvalidRecordError(stateKey(state.relativePath), `output ${JSON.stringify(key)} is not in its layout`);
    }
    return { kind, key };
  });
}

export type RecordedOutput = { kind: OutputKind; key: string } | { kind: 'asset'; key: string; name: string };

/** Values serialised together: a batch's lines joined are a string of about a megabyte for a table's chunks. */
const LINES_PER_BATCH = 512;

/**
 * One compact JSON value a line, each line ending in '\n' (JSON Lines), in UTF-8. A large document's chunks make a
 * file of tens of MB (a 48 MB CSV: 57,000 chunks, 86 MB): serialised a batch at a time straight into the bytes
 * written, where a string of every line, the lines joined and their UTF-8 copy at the write held it three times.
 */
export function jsonLines(values: readonly unknown[], key: string): Uint8Array {
  let bytes = Buffer.allocUnsafe(64 << 10);
  let size = 0;
  for (let start = 0; start < values.length; start += LINES_PER_BATCH) {
    const text = values.slice(start, start + LINES_PER_BATCH).map((value) => prettyJson(value, key, 0)).join('');
    const needed = size + Buffer.byteLength(text);
    if (needed > bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, bytes.length * 2));
      bytes.copy(grown, 0, 0, size);
      bytes = grown;
    }
    size += bytes.write(text, size);
  }
  return bytes.subarray(0, size);
}

/**
 * A chunks file copied to another path (same content, same options): each chunk's `source.path` names the new
 * path and its id, which includes the path, is recomputed by `idOf`.
 */
export function retargetChunks(body: string, relativePath: string, idOf: (chunk: RetargetedChunk) => string): string {
  const lines = body.split('\n').filter((line) => line.trim() !== '');
  return lines
    .map((line) => {
      const chunk = JSON.parse(line) as RetargetedChunk;
      if (chunk.source && typeof chunk.source === 'object') chunk.source = { ...chunk.source, path: relativePath };
      chunk.id = idOf(chunk);
      return `${JSON.stringify(chunk)}\n`;
    })
    .join('');
}

export interface RetargetedChunk {
  id: string;
  source: { path: string; sha256: string } | null;
  charStart: number;
  charEnd: number;
  text: string;
}

/** JSON as stored: two-space indent and a trailing newline, so files diff and `cat` cleanly. */
export function prettyJson(value: unknown, key: string, indent = 2): string {
  const text = JSON.stringify(value, null, indent) as string | undefined;
  if (text === undefined) throw new StoreWriteError(key, new TypeError('the value has no JSON representation'));
  return `${text}\n`;
}

/** The picture encodings by the extension their files are named with; other pictures are `.bin`. */
export const IMAGE_MEDIA_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  emf: 'image/emf',
  wmf: 'image/wmf',
};

/** Content type for an S3 object, from its key's suffix. */
export function contentTypeOf(key: string): string {
  const extension = /\.assets\/[^/]+\.([a-z0-9]+)$/i.exec(key)?.[1]?.toLowerCase();
  if (extension !== undefined) return IMAGE_MEDIA_TYPES[extension] ?? 'application/octet-stream';
  if (key.endsWith('.md')) return 'text/markdown; charset=utf-8';
  if (key.endsWith('.jsonl')) return 'application/x-ndjson';
  if (key.endsWith('.pdf')) return 'application/pdf';
  return 'application/json';
}
