/**
 * Benchmark "PDF headings against the document's own outline": web articles printed to PDF by LibreOffice Writer,
 * tagged and untagged, read by docmill's PDF engine; its headings and their levels scored against the article's own
 * `<h1>`…`<h6>`. Run by hand, never by the tests:
 *
 *   npm run build && npx tsx bench/pdf-headings.ts --pages <folder of .html or .html.gz pages>
 *   npx tsx bench/pdf-headings.ts --pages <...> --before /tmp/docmill-before     # another built checkout beside it
 *   npx tsx bench/pdf-headings.ts --pages <...> --skip 16 --limit 20              # the next 20 pages (not tuned on)
 *
 * Pages: every page of the folder with at least 3 `<h2>` (at most 15) and 3 `<h3>` (a document with an outline),
 * in name order, `--skip` of them left out, then `--limit`. Each is read by docmill's HTML engine (main content),
 * and its Markdown written out again as plain HTML (headings, paragraphs, lists; tables, code and images left out):
 * the headings of that Markdown, with their levels, are the truth. LibreOffice (`soffice`, Debian's
 * `libreoffice-writer-nogui`; installed by hand, never a dependency) opens that HTML as a Writer document, whose
 * headings get Writer's Heading 1–6 styles, and exports it twice: as a tagged PDF (a structure tree with H1…H6, as
 * Word and accessible exports write) and as an untagged one (sizes and weights only, as "Print to PDF" writes).
 * `--printers libreoffice,chromium` also prints each page with Chromium (`chromium --headless --print-to-pdf`, as a
 * browser's "Save as PDF": tagged by default, untagged with `--disable-pdf-tagging`; Debian's `chromium`).
 * A public set of such pages: WCXB (github `Murrough-Foley/web-content-extraction-benchmark`, CC-BY-4.0), `dev/html`.
 *
 * Scored per heading of the truth: found (a heading of docmill's Markdown with the same text, compared without
 * case, Markdown escapes, or the kind of quote marks) and at the same level; extra headings are docmill's headings
 * with no heading of the truth. Printed: those counts over all pages for each contender and each kind of PDF.
 *
 * Flags: --pages DIR · --limit N (16) · --skip N (0) · --before ROOT (a built checkout: bin/ and dist/) · --keep ·
 *        --printers libreoffice,chromium (libreoffice) ·
 *        --misses (each page's headings this checkout missed or levelled otherwise, `level→level` or `level→text`,
 *        and its extra headings)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { exitWithHelpIfAsked } from './lib/help.js';
import { markdownTable } from './lib/table.js';
import { htmlToModel } from '../src/engine/html/convert-html.js';
import type { checkOptions as CheckOptions } from '../src/backend/upload-checks.js';
import type { LocalParseEngine as Engine } from '../src/engine/local-engine.js';

exitWithHelpIfAsked(import.meta.url);

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: flags } = parseArgs({
  options: {
    pages: { type: 'string' },
    limit: { type: 'string', default: '16' },
    skip: { type: 'string', default: '0' },
    before: { type: 'string' },
    keep: { type: 'boolean', default: false },
    misses: { type: 'boolean', default: false },
    printers: { type: 'string', default: 'libreoffice' },
  },
  strict: true,
});
if (!flags.pages) {
  process.stderr.write('usage: npx tsx bench/pdf-headings.ts --pages <folder of .html pages> [--limit N] [--skip N] [--before ROOT] [--keep]\n');
  process.exit(2);
}

interface Heading {
  level: number;
  text: string;
}

/** A heading's text as compared: no Markdown escapes or emphasis, one kind of quote, no case, single spaces. */
function comparable(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\\(.)/g, '$1')
    .replace(/[*_`]/g, '')
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[–—]/g, '-')
    .replace(/[\u200b¶]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

function headingsOf(markdown: string): Heading[] {
  return markdown.split('\n').flatMap((line) => {
    const match = /^(#{1,6}) (.*)$/.exec(line);
    return match ? [{ level: match[1]!.length, text: comparable(match[2]!) }] : [];
  });
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
/** Markdown inline text as the plain text a page shows: links to their text, escapes and emphasis marks gone. */
const plain = (markdown: string) => markdown.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\\([^\s])/g, '$1').replace(/[*_`]/g, '');

/** The article as plain HTML and its headings, from docmill's HTML engine; undefined when it has no outline. */
function article(html: string): { html: string; truth: Heading[] } {
  const model = htmlToModel(html);
  const out: string[] = [];
  let inList = false;
  for (const block of model.pages.flatMap((page) => page.blocks.filter((b) => b.furniture !== true))) {
    const markdown = block.markdown;
    if (/^(!\[|\||```)/.test(markdown)) continue;
    if (/^[-*] /.test(markdown)) {
      if (!inList) out.push('<ul>');
      inList = true;
      for (const item of markdown.split(/\n+(?=[-*] )/)) out.push(`<li>${escapeHtml(plain(item.replace(/^[-*] /, '')))}</li>`);
      continue;
    }
    if (inList) out.push('</ul>');
    inList = false;
    const heading = /^(#{1,6}) (.*)$/s.exec(markdown);
    out.push(heading ? `<h${heading[1]!.length}>${escapeHtml(plain(heading[2]!))}</h${heading[1]!.length}>` : `<p>${escapeHtml(plain(markdown))}</p>`);
  }
  if (inList) out.push('</ul>');
  const body = out.join('\n');
  return { html: `<!doctype html><html><head><meta charset="utf-8"></head><body>\n${body}\n</body></html>`, truth: headingsOf(out.filter((line) => line.startsWith('<h')).map((line) => line.replace(/^<h(\d)>(.*)<\/h\d>$/, (_, n: string, text: string) => `${'#'.repeat(Number(n))} ${text.replace(/&lt;/g, '<').replace(/&amp;/g, '&')}`)).join('\n')) };
}

function hasOutline(html: string): boolean {
  const h2 = html.match(/<h2[\s>]/gi)?.length ?? 0;
  const h3 = html.match(/<h3[\s>]/gi)?.length ?? 0;
  return h2 >= 3 && h2 <= 15 && h3 >= 3;
}

type Printer = 'libreoffice' | 'chromium';

/** Prints every page of `htmlDir` into `outDir` as PDF, tagged or not. */
function exportPdfs(printer: Printer, htmlDir: string, outDir: string, tagged: boolean): void {
  const files = readdirSync(htmlDir).filter((name) => name.endsWith('.html')).map((name) => join(htmlDir, name));
  if (printer === 'libreoffice') {
    const filter = `pdf:writer_pdf_Export:{"UseTaggedPDF":{"type":"boolean","value":"${tagged}"}}`;
    execFileSync('soffice', ['--headless', '--infilter=HTML (StarWriter)', '--convert-to', filter, '--outdir', outDir, ...files], { stdio: 'ignore', timeout: 600_000 });
    return;
  }
  for (const file of files) {
    const out = join(outDir, basename(file).replace(/\.html$/, '.pdf'));
    const args = ['--headless', '--no-sandbox', '--disable-gpu', '--no-pdf-header-footer', ...(tagged ? [] : ['--disable-pdf-tagging']), `--print-to-pdf=${out}`, file];
    execFileSync('chromium', args, { stdio: 'ignore', timeout: 60_000 });
  }
}

interface Score {
  truth: number;
  found: number;
  levelRight: number;
  extra: number;
}

function score(truth: readonly Heading[], got: readonly Heading[], misses: string[] = []): Score {
  let found = 0;
  let levelRight = 0;
  const used = new Set<number>();
  for (const heading of truth) {
    const at = got.findIndex((other, i) => !used.has(i) && other.text === heading.text);
    if (at < 0) {
      misses.push(`${heading.level}→text "${heading.text.slice(0, 40)}"`);
      continue;
    }
    used.add(at);
    found++;
    if (got[at]!.level === heading.level) levelRight++;
    else misses.push(`${heading.level}→${got[at]!.level} "${heading.text.slice(0, 40)}"`);
  }
  got.forEach((heading, i) => {
    if (!used.has(i)) misses.push(`extra ${heading.level} "${heading.text.slice(0, 40)}"`);
  });
  return { truth: truth.length, found, levelRight, extra: got.length - used.size };
}

type Parse = (path: string) => Promise<string>;

async function parserOf(root: string): Promise<{ parse: Parse; close: () => Promise<void> }> {
  const { LocalParseEngine } = (await import(pathToFileURL(join(root, 'dist/src/engine/local-engine.js')).href)) as { LocalParseEngine: typeof Engine };
  const { checkOptions } = (await import(pathToFileURL(join(root, 'dist/src/backend/upload-checks.js')).href)) as { checkOptions: typeof CheckOptions };
  const engine = new LocalParseEngine({ size: 1 });
  const options = checkOptions({ parsers: [{ type: 'pdf' }] });
  return {
    parse: async (path) => (await engine.parseBytes(new Uint8Array(readFileSync(path)), 'page.pdf', options)).markdown ?? '',
    close: () => engine.close(),
  };
}

const pagesDir = resolve(flags.pages);
const names = readdirSync(pagesDir).filter((name) => /\.html?(\.gz)?$/.test(name)).sort();
const work = mkdtempSync(join(tmpdir(), 'docmill-pdf-headings-'));
const htmlDir = join(work, 'html');
mkdirSync(htmlDir);
const truths = new Map<string, Heading[]>();
let skipped = 0;
for (const name of names) {
  if (truths.size >= Number(flags.limit)) break;
  const bytes = readFileSync(join(pagesDir, name));
  const html = (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  if (!hasOutline(html)) continue;
  if (skipped++ < Number(flags.skip)) continue;
  const id = name.replace(/\.html?(\.gz)?$/, '');
  const made = article(html);
  writeFileSync(join(htmlDir, `${id}.html`), made.html);
  truths.set(id, made.truth);
}
console.log(`${truths.size} pages with an outline from ${pagesDir} (${Number(flags.skip)} left out first), ${[...truths.values()].reduce((n, t) => n + t.length, 0)} headings`);
const printers = flags.printers.split(',').map((name) => name.trim()) as Printer[];
const kinds: string[] = [];
for (const printer of printers) {
  if (printer !== 'libreoffice' && printer !== 'chromium') throw new Error(`--printers: libreoffice or chromium, not ${printer}`);
  for (const tagged of [true, false]) {
    const kind = `${printer} ${tagged ? 'tagged' : 'untagged'}`;
    const dir = join(work, kind.replace(' ', '-'));
    mkdirSync(dir);
    exportPdfs(printer, htmlDir, dir, tagged);
    kinds.push(kind);
  }
}

const contenders = [{ name: `docmill (${REPO})`, root: REPO }, ...(flags.before ? [{ name: `docmill (${resolve(flags.before)})`, root: resolve(flags.before) }] : [])];
const rows: string[][] = [];
for (const contender of contenders) {
  const parser = await parserOf(contender.root);
  for (const kind of kinds) {
    const total: Score = { truth: 0, found: 0, levelRight: 0, extra: 0 };
    for (const [id, truth] of truths) {
      const got = headingsOf(await parser.parse(join(work, kind.replace(' ', '-'), `${id}.pdf`)));
      const misses: string[] = [];
      const one = score(truth, got, misses);
      if (flags.misses && contender.root === REPO && misses.length > 0) console.log(`${kind} ${id}: ${misses.slice(0, 6).join(' · ')}`);
      for (const key of Object.keys(total) as (keyof Score)[]) total[key] += one[key];
    }
    const share = (n: number) => `${n} (${((100 * n) / total.truth).toFixed(0)} %)`;
    rows.push([contender.name, kind, String(total.truth), share(total.found), share(total.levelRight), String(total.extra)]);
  }
  await parser.close();
}
console.log(`\n${markdownTable(['contender', 'PDF', 'headings', 'found as headings', 'at their level', 'extra headings'], rows)}`);
if (flags.keep) console.log(`PDFs kept in ${work}`);
else rmSync(work, { recursive: true, force: true });
