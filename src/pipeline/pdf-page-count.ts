/**
 * A PDF's page count without parsing it, for the cost estimate and the choice to split. The page tree's root says
 * it (`/Count`): found through the newest trailer's `/Root`, the catalog's `/Pages`, then that object, plain or
 * inside a compressed object stream; a file cut short, whose trailers are gone, as the engine repairs it
 * (engine/pdf/recover.ts: pure, no PDF library). That takes milliseconds even for a 2,000-page file, where loading
 * it into pdf-lib takes the better part of a second. A file this cannot read counts as 1 page, with a note saying why.
 *
 * There is no second reader behind it. pdf-lib used to count what the page tree could not, but on the 115 PDFs at
 * hand (a 99-file PDF benchmark set, the test corpus, the engine's fixtures) the page tree counted every file pdf-lib
 * could, with the same count, and the three it could not (empty, truncated) pdf-lib could not either. pdf-lib also
 * reports damaged objects on `console.warn`, with no option to stop it per document, which is why the count once
 * silenced `console.warn` for the whole process while it ran. pdfjs has such an option (`verbosity`), but loading it
 * here would replace `Array.prototype.push` and add globals in the worker's own thread (its bundled polyfills): it
 * stays in the engine's threads. See docs/architecture.md, "PDF: which library does what".
 */
import { inflateSync } from 'node:zlib';
import { extensionOf } from '../contract/extensions.js';

export interface PdfPageCount {
  pages: number;
  /** How the count was read: the page tree's /Count, or not at all (`unreadable`: 1 page assumed). */
  method: 'page-tree' | 'unreadable';
  /** Why the count is a guess, on `unreadable`. */
  note?: string | undefined;
}

/** The most pages a count may claim before it is treated as garbage (the contract's maxPages ceiling is 10,000). */
const PLAUSIBLE_PAGES = 1_000_000;
/** The most `/Root` entries looked at, newest first, before the file is called unreadable. */
const MAX_ROOT_CANDIDATES = 64;
/** The longest object dictionary read as text. */
const OBJECT_WINDOW = 64 * 1024;

/** Whether the API will take the file as a PDF: its bytes say so (`%PDF-` near the start), or its name does. */
export function isPdf(bytes: Uint8Array, fileName: string): boolean {
  if (extensionOf(fileName) === '.pdf') return true;
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).includes('%PDF-');
}

const NO_ROOT = 'no trailer names its catalog (/Root)';

export async function countPdfPages(bytes: Uint8Array): Promise<PdfPageCount> {
  if (bytes.byteLength === 0) return { pages: 1, method: 'unreadable', note: 'not readable as a PDF (empty file); counted as 1 page' };
  let read = readPageTree(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (read === NO_ROOT) {
    // A file cut short has lost its trailers: it is counted as the engine reads it, repaired. Loaded only then: the
    // repair brings the engine's byte readers, which a run's main thread otherwise never needs.
    const repaired = (await import('../engine/pdf/recover.js')).recoverTruncatedPdf(bytes);
    if (repaired) read = readPageTree(Buffer.from(repaired.buffer, repaired.byteOffset, repaired.byteLength));
  }
  if (typeof read === 'number') return { pages: read, method: 'page-tree' };
  return { pages: 1, method: 'unreadable', note: `not readable as a PDF (${read}); counted as 1 page` };
}

/**
 * The /Count of the page tree's root, found through the trailer's /Root and the catalog's /Pages. Each object is
 * read from its newest definition, plain or inside a compressed object stream: the one furthest into the file, since
 * an incremental update appends (code_and_formula.pdf in the test corpus redefines its page tree so).
 */
export function pageTreeCount(buffer: Buffer): number | undefined {
  const read = readPageTree(buffer);
  return typeof read === 'number' ? read : undefined;
}

/** The page count, or why it cannot be read. */
function readPageTree(buffer: Buffer): number | string {
  const root = newestRoot(buffer);
  if (!root) return NO_ROOT;
  const streams = new ObjectStreams(buffer);
  const catalog = definition(buffer, streams, root.number, root.generation);
  if (catalog === undefined) return `its catalog (object ${root.number}) is missing`;
  const pagesRef = /\/Pages\s+(\d+)\s+(\d+)\s+R/.exec(catalog);
  if (!pagesRef) return 'its catalog names no page tree (/Pages)';
  const tree = definition(buffer, streams, Number(pagesRef[1]), Number(pagesRef[2]));
  if (tree === undefined || !/\/Type\s*\/Pages\b/.test(tree)) return `its page tree (object ${pagesRef[1]}) is missing`;
  const count = /\/Count\s+(\d+)(?!\s+\d+\s+R)/.exec(tree);
  if (!count) return 'its page tree states no page count (/Count)';
  const pages = Number(count[1]);
  return pages >= 1 && pages <= PLAUSIBLE_PAGES ? pages : `its page tree claims ${count[1]} pages`;
}

/**
 * The newest trailer's (or cross-reference stream dictionary's) `/Root n g R`: the last in the file. Searched
 * backwards natively, so garbage after the end of the file costs a scan, not a read of the whole file as text.
 */
function newestRoot(buffer: Buffer): { number: number; generation: number } | undefined {
  let end = buffer.byteLength;
  for (let candidates = 0; candidates < MAX_ROOT_CANDIDATES; candidates++) {
    const at = buffer.lastIndexOf('/Root', end);
    if (at < 0) return undefined;
    const reference = /^\/Root\s+(\d+)\s+(\d+)\s+R/.exec(buffer.subarray(at, at + 40).toString('latin1'));
    if (reference) return { number: Number(reference[1]), generation: Number(reference[2]) };
    end = at - 1;
    if (end < 0) return undefined;
  }
  return undefined;
}

interface Definition {
  /** Where it is in the file (an object stream's definitions: where the stream is). */
  at: number;
  text: string;
}

function definition(buffer: Buffer, streams: ObjectStreams, number: number, generation: number): string | undefined {
  const plain = objectText(buffer, number, generation);
  const compressed = generation === 0 ? streams.definitions(number) : [];
  const newest = [...(plain ? [plain] : []), ...compressed].reduce<Definition | undefined>((found, next) => (found && found.at > next.at ? found : next), undefined);
  return newest?.text;
}

/** The objects of a file's compressed object streams (`/Type /ObjStm`, FlateDecode), read once, when first asked. */
class ObjectStreams {
  #objects: Map<number, Definition[]> | undefined;

  constructor(private readonly buffer: Buffer) {}

  definitions(number: number): Definition[] {
    this.#objects ??= this.#readAll();
    return this.#objects.get(number) ?? [];
  }

  #readAll(): Map<number, Definition[]> {
    const objects = new Map<number, Definition[]>();
    const { buffer } = this;
    for (let at = buffer.indexOf('/ObjStm'); at >= 0; at = buffer.indexOf('/ObjStm', at + 7)) {
      const start = buffer.lastIndexOf('obj', at);
      const keyword = buffer.indexOf('stream', at);
      if (start < 0 || keyword < 0 || keyword - start > OBJECT_WINDOW) continue;
      const dictionary = buffer.subarray(start, keyword).toString('latin1');
      const count = /\/N\s+(\d+)/.exec(dictionary);
      const first = /\/First\s+(\d+)/.exec(dictionary);
      // Predictors (DecodeParms) and other filters are not read: no PDF at hand puts them on an object stream.
      if (!count || !first || !/\/Filter\s*\/FlateDecode\b/.test(dictionary) || /\/DecodeParms/.test(dictionary)) continue;
      let dataStart = keyword + 'stream'.length;
      if (buffer[dataStart] === 0x0d) dataStart++;
      if (buffer[dataStart] === 0x0a) dataStart++;
      const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dictionary);
      const dataEnd = length ? dataStart + Number(length[1]) : buffer.indexOf('endstream', dataStart);
      if (dataEnd < dataStart || dataEnd > buffer.byteLength) continue;
      let data: string;
      try {
        data = inflateSync(buffer.subarray(dataStart, dataEnd)).toString('latin1');
      } catch {
        continue;
      }
      const offsetsEnd = Number(first[1]);
      const pairs = data.slice(0, offsetsEnd).trim().split(/\s+/).map(Number);
      const n = Number(count[1]);
      for (let i = 0; i < n && 2 * i + 1 < pairs.length; i++) {
        const number = pairs[2 * i]!;
        const from = offsetsEnd + pairs[2 * i + 1]!;
        const to = i + 1 < n && 2 * i + 3 < pairs.length ? offsetsEnd + pairs[2 * i + 3]! : data.length;
        const found = objects.get(number) ?? [];
        found.push({ at: start, text: data.slice(from, to) });
        objects.set(number, found);
      }
      at = dataEnd;
    }
    return objects;
  }
}

/** The text of the newest definition of object `number generation` (an incremental update appends newer ones). */
function objectText(buffer: Buffer, number: number, generation: number): Definition | undefined {
  const header = `${number} ${generation} obj`;
  let end = buffer.byteLength;
  for (;;) {
    const at = buffer.lastIndexOf(header, end);
    if (at < 0) return undefined;
    // "12 0 obj" inside "112 0 obj" is not object 12.
    const before = at === 0 ? 0x20 : buffer[at - 1]!;
    if (before < 0x30 || before > 0x39) {
      // Only the object's own bytes become text: the window read whole was a string of 64 KB for a dictionary of a
      // few dozen bytes, twice a document (a third of what the main thread allocated over a run of small PDFs).
      const window = buffer.subarray(at + header.length, Math.min(buffer.byteLength, at + header.length + OBJECT_WINDOW));
      const stop = window.indexOf('endobj');
      return { at, text: window.toString('latin1', 0, stop < 0 ? window.byteLength : stop) };
    }
    end = at - 1;
    if (end < 0) return undefined;
  }
}
