/**
 * Seeded mutants of the corpus (test/fixtures/corpus): damaged documents as archives hold them. The same seed gives
 * the same mutants, byte for byte (but for the paths an `xxe` or `zip-slip` mutant names, which are the campaign's),
 * so a failure found once is found again. Used by the mutation test
 * (mutations.test.ts: a few hundred, under a minute) and the long campaign (bench/mutations.ts: thousands).
 *
 * Mutations, each applied where it means something:
 * - `bitflip`: 1 to 64 bits flipped anywhere;
 * - `truncate`: the file cut at 5 to 95 % of its length;
 * - `overwrite`: 16 bytes to 2 KiB overwritten with random bytes;
 * - `xml-truncate` / `xml-garbage` (zip packages): one XML part cut short, or given stray markup;
 * - `zip-slip` (zip packages): entries named `../../…`, `/…` and `C:\…` added, naming a file beside the output;
 * - `xxe` / `entity-bomb` (zip packages, HTML, XHTML): an XML part or the page given a DOCTYPE that declares an
 *   external entity (the path of a secret file) or a billion-laughs entity, and used in the text;
 * - `zip-header-lie` (zip packages): a local or central header given a wrong size, method, CRC or name length,
 *   or the end record a wrong entry count or directory offset;
 * - `pdf-xref` / `pdf-page-tree` (PDF): the cross-reference offsets or `startxref` shifted; the page tree's
 *   `/Count`, `/Kids` or `/Parent` made to lie (huge counts, cycles, missing kids);
 * - `wrong-extension`: the bytes of one format under another format's extension.
 *
 * A mutant that comes out the same as an earlier one (a fixture under another name; the same DOCTYPE added to the
 * same page) gets a few harmless bytes at its end, so that no two are alike and none is skipped as the same content.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';

export const MUTATIONS = [
  'bitflip',
  'truncate',
  'overwrite',
  'xml-truncate',
  'xml-garbage',
  'zip-slip',
  'xxe',
  'entity-bomb',
  'zip-header-lie',
  'pdf-xref',
  'pdf-page-tree',
  'wrong-extension',
] as const;
export type Mutation = (typeof MUTATIONS)[number];

export interface Fixture {
  /** `xlsx/empty.xlsx` */
  path: string;
  /** `.xlsx` */
  extension: string;
  bytes: Uint8Array;
}

export interface Mutant {
  /** A file name safe on every file system: `m0042_bitflip_empty.xlsx`. */
  fileName: string;
  /** The extension the mutant is named with (a wrong one for `wrong-extension`). */
  extension: string;
  /** The fixture it was made from. */
  origin: string;
  mutation: Mutation;
  bytes: Uint8Array;
}

export interface MutantContext {
  /** The path an `xxe` mutant's entity names: a file whose content must never reach an output. */
  secretPath: string;
  /** The path a `zip-slip` mutant's entries try to reach: nothing may be written there. */
  escapePath: string;
}

export const CORPUS_DIR = fileURLToPath(new URL('../../fixtures/corpus/', import.meta.url));

const ZIP_EXTENSIONS = new Set(['.docx', '.docm', '.xlsx', '.xlsm', '.xlsb', '.pptx', '.pptm', '.odt', '.ods', '.odp', '.epub']);
const MARKUP_EXTENSIONS = new Set(['.html', '.htm', '.xhtml']);

/** The corpus's documents (reference Markdown left out), optionally only those up to `maxBytes`. */
export function corpusFixtures(maxBytes = Number.POSITIVE_INFINITY): Fixture[] {
  const fixtures: Fixture[] = [];
  for (const folder of readdirSync(CORPUS_DIR, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort()) {
    for (const name of readdirSync(join(CORPUS_DIR, folder)).sort()) {
      if (name.endsWith('.md')) continue;
      const bytes = new Uint8Array(readFileSync(join(CORPUS_DIR, folder, name)));
      if (bytes.length === 0 || bytes.length > maxBytes) continue;
      fixtures.push({ path: `${folder}/${name}`, extension: name.slice(name.lastIndexOf('.')).toLowerCase(), bytes });
    }
  }
  return fixtures;
}

/** mulberry32: small, fast, and the same on every platform. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The mutations that mean something for a fixture. */
export function applicableMutations(fixture: Fixture): Mutation[] {
  const kinds: Mutation[] = ['bitflip', 'truncate', 'overwrite', 'wrong-extension'];
  if (ZIP_EXTENSIONS.has(fixture.extension)) kinds.push('xml-truncate', 'xml-garbage', 'zip-slip', 'xxe', 'entity-bomb', 'zip-header-lie');
  if (MARKUP_EXTENSIONS.has(fixture.extension)) kinds.push('xxe', 'entity-bomb');
  if (fixture.extension === '.pdf') kinds.push('pdf-xref', 'pdf-page-tree');
  return kinds;
}

/**
 * `count` mutants from `seed`: formats taken in turn (so every format gets its share), a fixture of the format
 * drawn, the mutations that apply to the format taken in turn too (so every one is met once the format has had as
 * many mutants), each applied with the same random stream.
 */
export function makeMutants(seed: number, count: number, fixtures: readonly Fixture[], context: MutantContext): Mutant[] {
  const random = seededRandom(seed);
  const byFormat = new Map<string, Fixture[]>();
  for (const fixture of fixtures) byFormat.set(fixture.extension, [...(byFormat.get(fixture.extension) ?? []), fixture]);
  const formats = [...byFormat.keys()].sort();
  const mutants: Mutant[] = [];
  const turns = new Map<string, number>();
  const made = new Set<string>();
  for (let index = 0; index < count; index += 1) {
    const format = formats[index % formats.length] as string;
    const pool = byFormat.get(format) as Fixture[];
    const fixture = pool[Math.floor(random() * pool.length)] as Fixture;
    const kinds = applicableMutations(fixture);
    const turn = turns.get(format) ?? Math.floor(random() * kinds.length);
    turns.set(format, turn + 1);
    const mutation = kinds[turn % kinds.length] as Mutation;
    const mutated = mutate(fixture, mutation, random, context, fixtures);
    const { extension } = mutated;
    let { bytes } = mutated;
    while (made.has(digest(bytes))) bytes = padded(bytes, fixture.extension, random);
    made.add(digest(bytes));
    const stem = fixture.path.slice(fixture.path.lastIndexOf('/') + 1, fixture.path.lastIndexOf('.')).replace(/[^A-Za-z0-9_-]+/g, '-');
    mutants.push({
      fileName: `m${String(index).padStart(4, '0')}_${mutation}_${stem}${extension}`,
      extension,
      origin: fixture.path,
      mutation,
      bytes,
    });
  }
  return mutants;
}

function mutate(fixture: Fixture, mutation: Mutation, random: () => number, context: MutantContext, all: readonly Fixture[]): { bytes: Uint8Array; extension: string } {
  const same = (bytes: Uint8Array) => ({ bytes, extension: fixture.extension });
  switch (mutation) {
    case 'bitflip':
      return same(bitflip(fixture.bytes, random));
    case 'truncate':
      return same(fixture.bytes.slice(0, Math.max(1, Math.floor(fixture.bytes.length * (0.05 + 0.9 * random())))));
    case 'overwrite':
      return same(overwrite(fixture.bytes, random));
    case 'xml-truncate':
    case 'xml-garbage':
      return same(inZip(fixture.bytes, random, (text) => (mutation === 'xml-truncate' ? text.slice(0, Math.floor(text.length * random())) : garbage(text, random))));
    case 'zip-slip':
      return same(zipSlip(fixture.bytes, context.escapePath, random));
    case 'xxe':
    case 'entity-bomb': {
      const doctype = mutation === 'xxe' ? xxeDoctype(context.secretPath) : BILLION_LAUGHS;
      const use = mutation === 'xxe' ? '&xxe;' : '&lol9;';
      if (MARKUP_EXTENSIONS.has(fixture.extension)) return same(strToU8(withDoctype(strFromU8(fixture.bytes), doctype, use)));
      return same(inZip(fixture.bytes, random, (text) => withDoctype(text, doctype, use)));
    }
    case 'zip-header-lie':
      return same(zipHeaderLie(fixture.bytes, random));
    case 'pdf-xref':
      return same(pdfXref(fixture.bytes, random));
    case 'pdf-page-tree':
      return same(pdfPageTree(fixture.bytes, random));
    case 'wrong-extension': {
      const others = [...new Set(all.map((candidate) => candidate.extension))].filter((extension) => extension !== fixture.extension).sort();
      return { bytes: fixture.bytes.slice(), extension: others[Math.floor(random() * others.length)] as string };
    }
  }
}

const TEXT_EXTENSIONS = new Set(['.csv', '.html', '.htm', '.xhtml', '.rtf']);

/**
 * The bytes with a few harmless ones after them: line ends after text, zeros after a binary format (its readers
 * find their structures from the front, or from the end record back).
 */
function padded(bytes: Uint8Array, extension: string, random: () => number): Uint8Array {
  const extra = 1 + Math.floor(random() * 64);
  const padding = TEXT_EXTENSIONS.has(extension) ? strToU8('\n'.repeat(extra)) : new Uint8Array(extra);
  const copy = new Uint8Array(bytes.length + padding.length);
  copy.set(bytes);
  copy.set(padding, bytes.length);
  return copy;
}

function digest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function bitflip(bytes: Uint8Array, random: () => number): Uint8Array {
  const copy = bytes.slice();
  const flips = 1 + Math.floor(random() * 64);
  for (let flip = 0; flip < flips; flip += 1) {
    const at = Math.floor(random() * copy.length);
    copy[at] = (copy[at] as number) ^ (1 << Math.floor(random() * 8));
  }
  return copy;
}

function overwrite(bytes: Uint8Array, random: () => number): Uint8Array {
  const copy = bytes.slice();
  const length = Math.min(copy.length, 16 + Math.floor(random() * 2032));
  const start = Math.floor(random() * Math.max(1, copy.length - length));
  for (let at = start; at < start + length; at += 1) copy[at] = Math.floor(random() * 256);
  return copy;
}

/** One XML part of a zip package, rewritten by `change`; the bytes bit-flipped when the package cannot be read. */
function inZip(bytes: Uint8Array, random: () => number, change: (text: string) => string): Uint8Array {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes);
  } catch {
    return bitflip(bytes, random);
  }
  const parts = Object.keys(files).filter((name) => /\.(xml|rels|opf|ncx|xhtml)$/i.test(name)).sort();
  if (parts.length === 0) return bitflip(bytes, random);
  const part = parts[Math.floor(random() * parts.length)] as string;
  files[part] = strToU8(change(strFromU8(files[part] as Uint8Array)));
  return rezip(files);
}

/** Entries dated alike, so that the same seed makes the same bytes on every run (fflate dates them now otherwise). */
const MTIME = new Date('2026-01-01T00:00:00Z');

/** As the packages are written: `mimetype` first and stored (ODF, EPUB), the rest deflated. */
function rezip(files: Record<string, Uint8Array>): Uint8Array {
  const zippable: Zippable = {};
  if (files.mimetype) zippable.mimetype = [files.mimetype, { level: 0, mtime: MTIME }];
  for (const [name, data] of Object.entries(files)) if (name !== 'mimetype') zippable[name] = [data, { mtime: MTIME }];
  return zipSync(zippable, { mtime: MTIME });
}

const STRAY_MARKUP = ['<', '</x>', '<a b="1>', '&', ']]>', '<!--', '<?x', '<y/><y/>', '"', '\u0000'];

function garbage(text: string, random: () => number): string {
  const at = Math.floor(random() * (text.length + 1));
  const stray = STRAY_MARKUP[Math.floor(random() * STRAY_MARKUP.length)] as string;
  return text.slice(0, at) + stray + text.slice(at);
}

function xxeDoctype(secretPath: string): string {
  return `<!DOCTYPE x [<!ENTITY xxe SYSTEM "file://${secretPath}">]>`;
}

const BILLION_LAUGHS =
  '<!DOCTYPE x [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
  Array.from({ length: 8 }, (_unused, level) => `<!ENTITY lol${level + 2} "${`&lol${level + 1};`.repeat(10)}">`).join('') +
  ']>';

/** The DOCTYPE after the XML declaration (or first), and the entity used in the first text found. */
function withDoctype(text: string, doctype: string, use: string): string {
  const withoutDoctype = text.replace(/<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/i, '');
  const declaration = /^\s*(\ufeff)?<\?xml[^>]*\?>/.exec(withoutDoctype);
  const head = declaration ? declaration[0] : '';
  const rest = withoutDoctype.slice(head.length);
  const used = rest.replace(/>([^<\s][^<]*)</, (_match, content: string) => `>${use}${content}<`);
  return `${head}${doctype}${used}`;
}

/** Names that step out of the package (and of any folder it might be unpacked into). */
function zipSlip(bytes: Uint8Array, escapePath: string, random: () => number): Uint8Array {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes);
  } catch {
    return bitflip(bytes, random);
  }
  const payload = strToU8('<?xml version="1.0"?><evil>zip slip</evil>');
  const depth = '../'.repeat(1 + Math.floor(random() * 12));
  files[`${depth}${escapePath.replace(/^\/+/, '')}`] = payload;
  files[escapePath] = payload;
  files[`C:\\${escapePath.replace(/\//g, '\\')}`] = payload;
  return rezip(files);
}

/** A local or central header, or the end record, made to lie about one field. */
function zipHeaderLie(bytes: Uint8Array, random: () => number): Uint8Array {
  const copy = bytes.slice();
  const view = new DataView(copy.buffer, copy.byteOffset, copy.byteLength);
  const signatures: { at: number; kind: 'local' | 'central' | 'end' }[] = [];
  for (let at = 0; at + 4 <= copy.length; at += 1) {
    const signature = view.getUint32(at, true);
    if (signature === 0x04034b50) signatures.push({ at, kind: 'local' });
    else if (signature === 0x02014b50) signatures.push({ at, kind: 'central' });
    else if (signature === 0x06054b50) signatures.push({ at, kind: 'end' });
  }
  if (signatures.length === 0) return bitflip(bytes, random);
  const target = signatures[Math.floor(random() * signatures.length)] as { at: number; kind: 'local' | 'central' | 'end' };
  const lies = [0, 0xffffffff, 0x7fffffff, 1 + Math.floor(random() * 1_000_000)];
  const lie = lies[Math.floor(random() * lies.length)] as number;
  // Field offsets: [uncompressed size, compressed size, method, CRC, name length] or the end record's [entries, offset].
  const fields =
    target.kind === 'local' ? [22, 18, 8, 14, 26] : target.kind === 'central' ? [24, 20, 10, 16, 28] : [8, 10, 16];
  const field = fields[Math.floor(random() * fields.length)] as number;
  const width = (target.kind === 'end' && field !== 16) || [8, 10, 26, 28].includes(field) ? 2 : 4;
  if (target.at + field + width > copy.length) return copy;
  if (width === 2) view.setUint16(target.at + field, lie & 0xffff, true);
  else view.setUint32(target.at + field, lie >>> 0, true);
  return copy;
}

function pdfXref(bytes: Uint8Array, random: () => number): Uint8Array {
  const text = latin1(bytes);
  const choice = random();
  if (choice < 0.4) {
    // Every offset of the cross-reference table shifted by a few bytes.
    const shift = 1 + Math.floor(random() * 40);
    return fromLatin1(text.replace(/^(\d{10}) (\d{5}) n/gm, (_match, offset: string, generation: string) => `${String(Number(offset) + shift).padStart(10, '0').slice(-10)} ${generation} n`));
  }
  if (choice < 0.8) return fromLatin1(text.replace(/startxref\s+(\d+)/g, (_match, offset: string) => `startxref\n${Math.floor(Number(offset) * random())}`));
  // The trailer's /Root points at an object that does not exist.
  return fromLatin1(text.replace(/\/Root\s+\d+\s+\d+\s+R/g, '/Root 99999 0 R'));
}

function pdfPageTree(bytes: Uint8Array, random: () => number): Uint8Array {
  const text = latin1(bytes);
  const choice = random();
  if (choice < 0.35) return fromLatin1(text.replace(/\/Count\s+\d+/g, `/Count ${[0, 999999999, 2147483647, 3][Math.floor(random() * 4)]}`));
  if (choice < 0.7) {
    // Every page tree node's kids made to point back at the first /Pages node found: a cycle.
    const pages = /(\d+)\s+(\d+)\s+obj\s*<<[^>]*\/Type\s*\/Pages/.exec(text);
    if (!pages) return bitflip(bytes, random);
    return fromLatin1(text.replace(/\/Kids\s*\[[^\]]*\]/g, `/Kids [${pages[1]} ${pages[2]} R]`));
  }
  return fromLatin1(text.replace(/\/Kids\s*\[[^\]]*\]/g, '/Kids [88888 0 R 88889 0 R]'));
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

function fromLatin1(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'latin1'));
}
