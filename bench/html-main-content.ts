/**
 * Benchmark "web pages: the main content" (issue 27). Run by hand, never by the tests. Two modes:
 *
 * Token mode (`--truth DIR`): token precision, recall and F1 of each extractor's text against a ground-truth main
 * text, per page and averaged over pages, as the article-extraction benchmarks score (bench/lib/token-score.ts), on
 * public pages read by bench/lib/main-text-pages.ts (a modern-web set, or readability's test pages). Every fourth
 * page is the part rules are tuned on, the rest is only measured (a WCXB checkout: its `dev/` half is tuned on, its
 * `test/` half only measured); both parts are reported side by side.
 *
 *   npx tsx bench/html-main-content.ts --truth <web-content-extraction-benchmark checkout>
 *   npx tsx bench/html-main-content.ts --truth <readability checkout>/test/test-pages --before /tmp/docmill-before
 *   npx tsx bench/html-main-content.ts --truth <...> --part tune     # the tuned part alone (a tuning loop)
 *
 * The comparison extractors' outputs (readability, defuddle) are kept in ~/.cache/docmill-bench/main-text-outputs
 * with their times, so a second run times docmill alone; their pages/s come from the first run.
 *
 * Passage mode (`--dir DIR`), on trafilatura's evaluation pages:
 *
 *   npx tsx bench/html-main-content.ts --dir <trafilatura checkout>/tests
 *   npx tsx bench/html-main-content.ts --dir <...>/tests --before /tmp/docmill-before   # docmill before/after
 *   npx tsx bench/html-main-content.ts --dir <...>/tests --limit 200    # 200 pages spread over the set
 *   npx tsx bench/html-main-content.ts --dir <...>/tests --limit 150 --rest --no-defuddle   # the other pages
 *
 * Data: the evaluation set of trafilatura (github.com/adbar/trafilatura, obtained by the user; nothing of it is in
 * this repository). `--dir` is a folder holding `evaldata.json` (an object: page URL → { file, with: [...],
 * without: [...] }, the hand-made ground truth: passages the main content must hold and passages it must not) and
 * the pages it names under `cache/` or `eval/` — the `tests/` folder of a trafilatura checkout is such a folder.
 *
 * Scoring, per page and per extractor, on the extractor's text output (docmill's: its Markdown with link
 * addresses and images left out, the text a reader sees):
 * - tokenisation: the text is lowercased and cut into word tokens, maximal runs of Unicode letters, digits and
 *   marks (`\p{L}\p{N}\p{M}`); punctuation, Markdown and whitespace are separators, so formatting never counts;
 * - a passage is found when its token sequence occurs, contiguous and in order, in the output's token sequence;
 * - a "with" passage found is a true positive, one missing a false negative; a "without" passage found is a false
 *   positive (trafilatura's evaluation counts passages the same way, by substring on whitespace-normalised text);
 * - precision = tp / (tp + fp), recall = tp / (tp + fn), F1 their harmonic mean, summed over all pages (overall)
 *   and per page. A page whose extractor throws or returns nothing scores no passage found.
 *
 * Extractors, each on the same bytes decoded by docmill's decoder (decode.ts; docmill-before by its own):
 * - docmill: `htmlToModel` with default options (onlyMainContent on); the Markdown of its blocks;
 * - docmill-before (with --before DIR): the same from another copy of docmill's `src/` under DIR, e.g. made with
 *   `git archive <commit> src | tar -x -C DIR` and `ln -s $PWD/node_modules DIR/node_modules`;
 * - readability: @mozilla/readability (docmill's dependency) alone on a linkedom document, its `textContent`;
 * - defuddle: defuddle/node, installed on first run outside docmill's dependencies (bench/lib/defuddle-install.ts),
 *   its `content` HTML reduced to text.
 * Speed: docmill's pages per second over the whole set (decoding excluded), after one untimed warm-up pass; with
 * `--rounds N` and `--before`, also N rounds timing docmill and docmill-before in turn, each in a process of its own
 * (bench/lib/html-speed-child.ts), and their time ratio.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Readability } from '@mozilla/readability';
import { parseDocument } from '../src/engine/html/dom.js';
import { decodeHtmlBytes } from '../src/engine/html/decode.js';
import { htmlToModel } from '../src/engine/html/convert-html.js';
import { ensureDefuddle } from './lib/defuddle-install.js';
import { markdownTable } from './lib/table.js';

import { loadTruthPages, type PageDecoder, type TruthPage } from './lib/main-text-pages.js';
import { meanScores, type TokenScore, tokenScore } from './lib/token-score.js';

interface EvalItem {
  file: string;
  with: string[];
  without: string[];
}
interface Page {
  url: string;
  file: string;
  html: string;
  /** The page as docmill-before's own decoder reads it (with --before). */
  htmlBefore?: string;
  item: EvalItem;
}
type Extract = (page: { html: string; htmlBefore?: string; url?: string }) => Promise<string> | string;
interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    truth: { type: 'string' },
    before: { type: 'string' },
    lowest: { type: 'string', default: '15' },
    limit: { type: 'string' },
    'per-page': { type: 'boolean', default: false },
    rest: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '0' },
    'no-defuddle': { type: 'boolean', default: false },
    part: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
const USAGE =
  'usage: npx tsx bench/html-main-content.ts (--truth <folder of pages with main texts> | --dir <folder with evaldata.json, cache/, eval/>)\n' +
  '  [--part tune|measure] [--before DIR] [--lowest N] [--limit N] [--per-page] [--rest] [--rounds N] [--no-defuddle]\n';
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (values.dir === undefined && values.truth === undefined) {
  process.stderr.write(USAGE);
  process.exit(2);
}

export function tokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
}

function contains(haystack: string[], needle: string[]): boolean {
  if (needle.length === 0) return false;
  outer: for (let start = 0; start + needle.length <= haystack.length; start++) {
    for (let index = 0; index < needle.length; index++) if (haystack[start + index] !== needle[index]) continue outer;
    return true;
  }
  return false;
}

function score(item: EvalItem, output: string): Counts {
  const found = tokens(output);
  const tp = item.with.filter((passage) => contains(found, tokens(passage))).length;
  const fp = item.without.filter((passage) => contains(found, tokens(passage))).length;
  return { tp, fp, fn: item.with.length - tp };
}

function prf({ tp, fp, fn }: Counts): [number, number, number] {
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f1 = 2 * tp + fp + fn === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
  return [precision, recall, f1];
}

async function loadPages(dir: string, decodeBefore?: PageDecoder): Promise<Page[]> {
  const data = JSON.parse(await readFile(join(dir, 'evaldata.json'), 'utf8')) as Record<string, EvalItem>;
  const pages: Page[] = [];
  for (const url of Object.keys(data).sort()) {
    const item = data[url] as EvalItem;
    const path = ['cache', 'eval'].map((sub) => join(dir, sub, item.file)).find((candidate) => existsSync(candidate));
    if (path === undefined) continue;
    const bytes = new Uint8Array(await readFile(path));
    const page: Page = { url, file: item.file, html: decodeHtmlBytes(bytes).text, item };
    if (decodeBefore) page.htmlBefore = decodeBefore(bytes);
    pages.push(page);
  }
  return pages;
}

function modelText(model: { pages: { blocks: { markdown: string; furniture?: boolean }[] }[] }): string {
  return visibleText(model.pages.flatMap((page) => page.blocks.filter((block) => block.furniture !== true).map((block) => block.markdown)).join('\n\n'));
}

/**
 * The text a reader sees of docmill's Markdown: images dropped, links reduced to their text. A link's address is
 * no text of the page (readability's and defuddle's text outputs hold none), and its tokens would split a passage
 * that runs through the link.
 */
function visibleText(markdown: string): string {
  return markdown.replace(/!\[[^\]]*\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g, ' ').replace(/\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g, ']');
}

const textOfHtml = (html: string): string => {
  const document = parseDocument(`<!doctype html><html><body>${html}</body></html>`);
  return (document.body as unknown as { textContent: string | null }).textContent ?? '';
};

/** With --before, that build's own page decoder: its extractor reads the bytes as that build would. */
async function beforeDecoder(): Promise<PageDecoder | undefined> {
  if (values.before === undefined) return undefined;
  const module = (await import(pathToFileURL(join(resolve(values.before), 'src/engine/html/decode.ts')).href)) as { decodeHtmlBytes: typeof decodeHtmlBytes };
  return (bytes) => module.decodeHtmlBytes(bytes).text;
}

async function buildExtractors(): Promise<{ extractors: Map<string, Extract>; timed: Set<string> }> {
  const extractors = new Map<string, Extract>();
  const timed = new Set<string>(['docmill']);
  extractors.set('docmill', (page) => modelText(htmlToModel(page.html)));
  if (values.before !== undefined) {
    const module = (await import(pathToFileURL(join(resolve(values.before), 'src/engine/html/convert-html.ts')).href)) as {
      htmlToModel: typeof htmlToModel;
    };
    extractors.set('docmill-before', (page) => modelText(module.htmlToModel(page.htmlBefore ?? page.html)));
    timed.add('docmill-before');
  }
  extractors.set('readability', (page) => {
    const document = parseDocument(page.html);
    const article = new Readability(document as never).parse();
    return article?.textContent ?? '';
  });
  if (!values['no-defuddle']) {
    const entry = await ensureDefuddle((line) => console.log(line));
    const { Defuddle } = (await import(pathToFileURL(entry).href)) as {
      Defuddle: (input: unknown, url?: string) => Promise<{ content: string }>;
    };
    const { parseHTML } = await import('linkedom');
    extractors.set('defuddle', async (page) => {
      const { document } = parseHTML(page.html);
      return textOfHtml((await Defuddle(document, page.url)).content);
    });
  }
  return { extractors, timed };
}

const CACHE = join(homedir(), '.cache', 'docmill-bench', 'main-text-outputs');
/** Pages run untimed before timing, so that the JIT has compiled the hot paths. */
const WARM_UP_PAGES = 20;

/** Runs every extractor over the pages (a warm-up pass first for the timed ones), console output silenced. */
async function runExtractors(pages: { id?: string; html: string; url?: string }[], extractors: Map<string, Extract>, timed: Set<string>, cacheDir?: string) {
  const outputs = new Map<string, { texts: string[]; seconds: number }>();
  const { log, warn, error } = console;
  for (const [name, extract] of extractors) {
    // The comparison extractors (pinned versions) give the same text every run: their outputs are kept on disk
    // with their time, so a tuning loop reruns docmill alone.
    const cachePath = cacheDir === undefined || timed.has(name) ? undefined : join(cacheDir, `${name}.json`);
    const cached = cachePath !== undefined && existsSync(cachePath) ? (JSON.parse(await readFile(cachePath, 'utf8')) as Record<string, { text: string; seconds: number }>) : {};
    if (pages.every((page) => page.id !== undefined && cached[page.id] !== undefined)) {
      const texts = pages.map((page) => cached[page.id as string]?.text ?? '');
      outputs.set(name, { texts, seconds: pages.reduce((sum, page) => sum + (cached[page.id as string]?.seconds ?? 0), 0) });
      continue;
    }
    console.log = console.warn = console.error = () => {};
    if (timed.has(name)) for (const page of pages.slice(0, WARM_UP_PAGES)) safe(() => extract(page));
    const texts: string[] = [];
    const started = performance.now();
    for (const page of pages) {
      const pageStarted = performance.now();
      try {
        texts.push(await extract(page));
      } catch {
        texts.push('');
      }
      if (cachePath !== undefined && page.id !== undefined) cached[page.id] = { text: texts.at(-1) ?? '', seconds: (performance.now() - pageStarted) / 1000 };
    }
    const seconds = (performance.now() - started) / 1000;
    Object.assign(console, { log, warn, error });
    if (cachePath !== undefined && cacheDir !== undefined) {
      await mkdir(cacheDir, { recursive: true });
      await writeFile(cachePath, JSON.stringify(cached));
    }
    outputs.set(name, { texts, seconds });
    console.error(`${name}: ${seconds.toFixed(1)} s`);
  }
  return outputs;
}

/** Token mode: token precision, recall and F1 against ground-truth main texts, the tuning part beside the rest. */
async function tokenMain(): Promise<void> {
  const dir = resolve(values.truth as string);
  // --part tune|measure: only that part (the tuning loop runs on the tuned part alone).
  const pages = (await loadTruthPages(dir, await beforeDecoder())).filter((page) => values.part === undefined || page.part === values.part);
  console.log(`${pages.length} pages from ${dir} (${pages.filter((page) => page.part === 'tune').length} tuned on, the others only measured)`);
  const { extractors, timed } = await buildExtractors();
  const outputs = await runExtractors(pages, extractors, timed, join(CACHE, `${createHash('sha256').update(dir).digest('hex').slice(0, 16)}`));
  const scores = new Map<string, (TokenScore | undefined)[]>();
  for (const [name, { texts }] of outputs) scores.set(name, pages.map((page, index) => tokenScore(page.truth, texts[index] ?? '')));

  const table = (keep: (page: TruthPage) => boolean) => {
    const rows: string[][] = [];
    for (const [name, { texts, seconds }] of outputs) {
      const picked = pages.map((page, index) => ({ page, index })).filter(({ page }) => keep(page));
      const pageScores = picked.map(({ index }) => scores.get(name)?.[index]).filter((score) => score !== undefined);
      const { precision, recall, f1 } = meanScores(pageScores);
      const empty = picked.filter(({ index }) => (texts[index] ?? '').trim() === '').length;
      rows.push([name, precision.toFixed(3), recall.toFixed(3), f1.toFixed(4), String(empty), String(pageScores.length), (pages.length / seconds).toFixed(1)]);
    }
    return markdownTable(['extractor', 'precision', 'recall', 'F1', 'empty outputs', 'pages', 'pages/s (all)'], rows);
  };
  const articles = (page: TruthPage) => page.kind === 'article' || page.kind === 'blog' || page.kind === 'readability-test';
  for (const [part, label] of [['tune', 'Tuned part'], ['measure', 'Measured part (the other pages, never tuned on)']] as const) {
    if (!pages.some((page) => page.part === part)) continue;
    console.log(`\n${label}, means over pages:\n`);
    console.log(table((page) => page.part === part));
    if (pages.some((page) => page.part === part && !articles(page))) {
      console.log(`\n${label}, news and blog articles only:\n`);
      console.log(table((page) => page.part === part && articles(page)));
    }
  }
  const kinds = [...new Set(pages.map((page) => page.kind))].sort();
  if (kinds.length > 1) {
    console.log('\nF1 by kind of page, all pages read:\n');
    const rows = kinds.map((kind) => {
      const indexes = pages.map((page, index) => ({ page, index })).filter(({ page }) => page.kind === kind);
      return [kind, String(indexes.length), ...[...outputs.keys()].map((name) => meanScores(indexes.map(({ index }) => scores.get(name)?.[index]).filter((score) => score !== undefined)).f1.toFixed(4))];
    });
    console.log(markdownTable(['kind', 'pages', ...outputs.keys()], rows));
  }
  const names = [...outputs.keys()];
  const pageRows = pages.map((page, index) => [`${page.id} (${page.kind}, ${page.part})`, ...names.map((name) => { const score = scores.get(name)?.[index]; return score === undefined ? '–' : `${score.f1.toFixed(2)} ${score.precision.toFixed(2)}/${score.recall.toFixed(2)}`; })]);
  const docmillF1 = (row: string[]) => Number((row[1] ?? '').split(' ')[0]);
  // Pages of a part not read (--part) have no score: left out, or their NaN would scramble the order.
  const lowest = pageRows.filter((row) => !Number.isNaN(docmillF1(row))).sort((a, b) => docmillF1(a) - docmillF1(b)).slice(0, Number(values.lowest));
  console.log(`\nLowest ${lowest.length} pages for docmill (F1 precision/recall):\n`);
  console.log(markdownTable(['page', ...names], lowest));
  await speedRounds(pages);
  if (values['per-page']) {
    console.log('\nPer page (F1 precision/recall):\n');
    console.log(markdownTable(['page', ...names], pageRows));
  }
}

async function main(): Promise<void> {
  const dir = resolve(values.dir as string);
  const all = await loadPages(dir, await beforeDecoder());
  // --limit N: every k-th page of the sorted list, N pages spread over the whole set.
  const limit = values.limit === undefined ? all.length : Math.min(all.length, Number(values.limit));
  const picked = all.filter((_, index) => Math.floor((index * limit) / all.length) !== Math.floor(((index - 1) * limit) / all.length) || index === 0).slice(0, limit);
  // --rest: the pages --limit leaves out, a held-out set for rules worked out on the --limit pages.
  const pages = values.rest ? all.filter((page) => !picked.includes(page)) : picked;
  console.log(`${pages.length} pages from ${dir}`);

  const { extractors, timed } = await buildExtractors();

  const perPage = new Map<string, { counts: Counts[]; empty: number; seconds: number }>();
  const log = console.log;
  const warn = console.warn;
  const error = console.error;
  for (const [name, extract] of extractors) {
    const counts: Counts[] = [];
    let empty = 0;
    console.log = console.warn = console.error = () => {};
    if (timed.has(name)) for (const page of pages) safe(() => extract(page));
    const started = performance.now();
    for (const page of pages) {
      let output: string;
      try {
        output = await extract(page);
      } catch {
        output = '';
      }
      if (output.trim() === '') empty++;
      counts.push(score(page.item, output));
    }
    const seconds = (performance.now() - started) / 1000;
    console.log = log;
    console.warn = warn;
    console.error = error;
    perPage.set(name, { counts, empty, seconds });
    console.error(`${name}: ${seconds.toFixed(1)} s`);
  }

  const rows: string[][] = [];
  for (const [name, { counts, empty, seconds }] of perPage) {
    const total = counts.reduce((sum, c) => ({ tp: sum.tp + c.tp, fp: sum.fp + c.fp, fn: sum.fn + c.fn }), { tp: 0, fp: 0, fn: 0 });
    const [precision, recall, f1] = prf(total);
    const meanF1 = counts.reduce((sum, c) => sum + prf(c)[2], 0) / counts.length;
    rows.push([name, precision.toFixed(3), recall.toFixed(3), f1.toFixed(3), meanF1.toFixed(3), String(empty), (pages.length / seconds).toFixed(1)]);
  }
  console.log('\nOverall (passages summed over all pages):\n');
  console.log(markdownTable(['extractor', 'precision', 'recall', 'F1', 'mean page F1', 'empty outputs', 'pages/s'], rows));

  const names = [...perPage.keys()];
  const pageRows = pages.map((page, index) => [page.file, ...names.map((name) => prf(perPage.get(name)?.counts[index] as Counts)[2].toFixed(2))]);
  const lowest = [...pageRows].sort((a, b) => Number(a[1]) - Number(b[1])).slice(0, Number(values.lowest));
  console.log(`\nLowest ${lowest.length} pages for docmill (page F1):\n`);
  console.log(markdownTable(['page', ...names], lowest));
  await speedRounds(pages);
  if (values['per-page']) {
    console.log('\nPer page (page F1):\n');
    console.log(markdownTable(['page', ...names], pageRows));
  }
}

/** This checkout (the copy `docmill` names). */
const REPOSITORY = fileURLToPath(new URL('..', import.meta.url));

async function speedRounds(pages: { html: string; htmlBefore?: string }[]): Promise<void> {
  const rounds = Number(values.rounds);
  if (rounds <= 0 || values.before === undefined) return;
  // Speed on a shared machine: the two copies timed in turn, round after round, so load that comes and goes falls
  // on both alike; each in a process of its own (html-speed-child.ts says why).
  const scratch = await mkdtemp(join(tmpdir(), 'docmill-html-speed-'));
  try {
    const files = { docmill: join(scratch, 'pages.json'), before: join(scratch, 'pages-before.json') };
    await writeFile(files.docmill, JSON.stringify(pages.map((page) => page.html)));
    await writeFile(files.before, JSON.stringify(pages.map((page) => page.htmlBefore ?? page.html)));
    const child = fileURLToPath(new URL('./lib/html-speed-child.ts', import.meta.url));
    const time = (root: string, file: string): number => {
      const run = spawnSync(process.execPath, ['--import', 'tsx', child, root, file], { encoding: 'utf8', maxBuffer: 1 << 20 });
      const seconds = Number(run.stdout.trim());
      if (run.status !== 0 || !Number.isFinite(seconds)) throw new Error(`speed child for ${root} failed: ${run.stderr.slice(-400)}`);
      return seconds;
    };
    console.log('\nSpeed, docmill and docmill-before timed in turn, each in a process of its own (a pass after an untimed one):\n');
    const speedRows: string[][] = [];
    for (let round = 1; round <= rounds; round++) {
      const after = time(REPOSITORY, files.docmill);
      const previous = time(resolve(values.before), files.before);
      speedRows.push([String(round), after.toFixed(1), previous.toFixed(1), (after / previous).toFixed(2)]);
    }
    console.log(markdownTable(['round', 'docmill s', 'docmill-before s', 'time ratio'], speedRows));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function safe(run: () => unknown): void {
  try {
    const result = run();
    if (result instanceof Promise) result.catch(() => {});
  } catch {
    /* scored in the timed pass */
  }
}

await (values.truth !== undefined ? tokenMain() : main());
