/**
 * Web pages with a ground-truth main text, for the token mode of bench/html-main-content.ts. Two layouts of public
 * data are read from a folder (nothing of them is in this repository):
 *
 * - a modern-web set in the layout of github.com/Murrough-Foley/web-content-extraction-benchmark (mirrored as
 *   tiptopjaw/web-content-extraction-benchmark; Apache-2.0; 1,000 pages collected in 2025–2026, truth written by a
 *   model and checked by hand): `html/<id>.html.gz` (or `release/html/`) and `ground-truth/<id>.json` (or
 *   `benchmark/ground-truth/`), whose `ground_truth.main_content` is the truth and `_internal.page_type.primary`
 *   the kind of page (article, forum, product, documentation...);
 * - readability's test pages (github.com/mozilla/readability `test/test-pages/`, Apache-2.0): `<name>/source.html`
 *   and `<name>/expected.html`, whose text is the truth (readability's own reviewed output, so this set flatters
 *   readability).
 *
 * Pages are sorted by id; `part` splits them for tuning: every fourth page (index 0, 4, 8...) is the tuning part,
 * the others are only measured. A folder holding the set's own split (WCXB 1.0, github.com/Murrough-Foley/
 * web-content-extraction-benchmark, CC-BY-4.0: `dev/` and `test/`, each in the layout above) is split its way
 * instead: `dev/` is tuned on, `test/` only measured.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decodeHtmlBytes } from '../../src/engine/html/decode.js';
import { parseDocument } from '../../src/engine/html/dom.js';

export interface TruthPage {
  id: string;
  /** The kind of page, when the data says it. */
  kind: string;
  html: string;
  /** The page as `decodeBefore` reads it (another docmill's decoder, for its extractor), when one is given. */
  htmlBefore?: string;
  truth: string;
  part: 'tune' | 'measure';
}

interface ModernTruth {
  url?: string;
  _internal?: { page_type?: { primary?: string } };
  ground_truth?: { main_content?: string };
  articleBody?: string;
}

const firstExisting = (...paths: string[]) => paths.find((path) => existsSync(path));

/** A page's bytes to the text an extractor is given (docmill's decoder, or another build's). */
export type PageDecoder = (bytes: Uint8Array) => string;

/** The pages of `dir`; with `decodeBefore`, each also as that decoder reads it (`htmlBefore`). */
export async function loadTruthPages(dir: string, decodeBefore?: PageDecoder): Promise<TruthPage[]> {
  if (existsSync(join(dir, 'dev', 'ground-truth')) && existsSync(join(dir, 'test', 'ground-truth'))) {
    const tune = (await loadTruthPages(join(dir, 'dev'), decodeBefore)).map((page) => ({ ...page, id: `dev/${page.id}`, part: 'tune' as const }));
    const measure = (await loadTruthPages(join(dir, 'test'), decodeBefore)).map((page) => ({ ...page, id: `test/${page.id}`, part: 'measure' as const }));
    return [...tune, ...measure];
  }
  const htmlDir = firstExisting(join(dir, 'html'), join(dir, 'release', 'html'));
  const truthDir = firstExisting(join(dir, 'ground-truth'), join(dir, 'benchmark', 'ground-truth'));
  const read = (bytes: Uint8Array) => (decodeBefore ? { html: decode(bytes), htmlBefore: decodeBefore(bytes) } : { html: decode(bytes) });
  const pages = htmlDir !== undefined && truthDir !== undefined ? await modernPages(htmlDir, truthDir, read) : await readabilityPages(dir, read);
  pages.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return pages.map((page, index) => ({ ...page, part: index % 4 === 0 ? 'tune' : 'measure' }));
}

const decode = (bytes: Uint8Array) => decodeHtmlBytes(bytes).text;

async function modernPages(htmlDir: string, truthDir: string, read: (bytes: Uint8Array) => Pick<TruthPage, 'html' | 'htmlBefore'>): Promise<TruthPage[]> {
  const pages: TruthPage[] = [];
  for (const name of await readdir(truthDir)) {
    if (!name.endsWith('.json')) continue;
    const id = name.slice(0, -'.json'.length);
    const htmlPath = firstExisting(join(htmlDir, `${id}.html.gz`), join(htmlDir, `${id}.html`));
    if (htmlPath === undefined) continue;
    const data = JSON.parse(await readFile(join(truthDir, name), 'utf8')) as ModernTruth;
    const truth = data.ground_truth?.main_content ?? data.articleBody ?? '';
    let bytes: Uint8Array = new Uint8Array(await readFile(htmlPath));
    if (htmlPath.endsWith('.gz')) bytes = new Uint8Array(gunzipSync(bytes));
    pages.push({ id, kind: data._internal?.page_type?.primary ?? 'page', ...read(bytes), truth, part: 'measure' });
  }
  return pages;
}

async function readabilityPages(dir: string, read: (bytes: Uint8Array) => Pick<TruthPage, 'html' | 'htmlBefore'>): Promise<TruthPage[]> {
  const pages: TruthPage[] = [];
  for (const name of await readdir(dir)) {
    const source = join(dir, name, 'source.html');
    const expected = join(dir, name, 'expected.html');
    if (!existsSync(source) || !existsSync(expected)) continue;
    const expectedDocument = parseDocument(`<!doctype html><html><body>${await readFile(expected, 'utf8')}</body></html>`);
    const truth = (expectedDocument.body as unknown as { textContent: string | null }).textContent ?? '';
    pages.push({ id: name, kind: 'readability-test', ...read(new Uint8Array(await readFile(source))), truth, part: 'measure' });
  }
  return pages;
}
