/**
 * Benchmark "text kept": does docmill's PDF engine keep every word of a PDF's text layer? Run by hand, never by the
 * tests, on any folder of PDFs (no reference Markdown needed):
 *
 *   npm run build && npx tsx bench/pdf-text-kept.ts --dir ~/archive/pdfs
 *   npx tsx bench/pdf-text-kept.ts                     # the PDF benchmark's dev half (../shared/pdf-bench/pdfs)
 *   npx tsx bench/pdf-text-kept.ts --dir DIR --mode auto --below 0.99 --words 50
 *
 * Each PDF is read by docmill's engine (`LocalParseEngine` from dist/, `parsers: [{ type: 'pdf', mode }]`, its
 * Markdown) and by poppler's `pdftotext -enc UTF-8` (Debian `poppler-utils`: `apt-get install -y poppler-utils`),
 * which keeps every glyph of the text layer in some order. Both are reduced to words (docmill's Markdown without its
 * link and image targets and table tags; NFKC, lowercased, runs of letters, marks and digits) and compared
 * as multisets: recall = the share of pdftotext's words docmill's Markdown holds, precision = the share of docmill's
 * words pdftotext has. Order and layout never count; words left out on purpose count as lost: running headers,
 * footers and page numbers (docmill keeps them as furniture blocks, out of the Markdown), and a scan's OCR or a
 * word split differently (a hyphen joined across a line end) count against one side or the other. A document far
 * below the others is the one to open: text lost to a wrong table, a column, a page read badly.
 *
 * Printed: each document under --below (recall), worst first, with the words pdftotext has that docmill lacks;
 * then the means, and how many documents are under the threshold.
 *
 * Flags: --dir DIR · --mode fast|auto (fast) · --threads N (cores) · --below R (0.98) · --words N (25)
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import type * as Docmill from '../src/index.js';
import { exitWithHelpIfAsked } from './lib/help.js';
import { defaultPdfBenchDirs } from './lib/pdf-bench-dir.js';
import { markdownTable } from './lib/table.js';
import { textWords, wordCounts } from './lib/word-recall.js';

exitWithHelpIfAsked(import.meta.url);

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

const { values: flags } = parseArgs({
  options: {
    dir: { type: 'string' },
    mode: { type: 'string', default: 'fast' },
    threads: { type: 'string' },
    below: { type: 'string', default: '0.98' },
    words: { type: 'string', default: '25' },
  },
  strict: true,
});

const modeFlag = flags.mode;
if (modeFlag !== 'fast' && modeFlag !== 'auto') throw new Error(`--mode must be fast or auto, not ${modeFlag}`);
const mode: 'fast' | 'auto' = modeFlag;
const threads = Number(flags.threads ?? availableParallelism());
const below = Number(flags.below);
const shown = Number(flags.words);

async function pdfFolder(): Promise<string> {
  if (flags.dir) return resolve(flags.dir);
  const found = (await defaultPdfBenchDirs(REPO)).find((dir) => existsSync(join(dir, 'pdfs')));
  if (!found) throw new Error('no PDF benchmark folder beside the repository: pass --dir');
  return join(found, 'pdfs');
}

/**
 * The words a reader sees in docmill's Markdown: a link's or an image's text without its target (an address printed
 * on the page stays: pdftotext has it too), a table's HTML tags out; Markdown's own marks are not words anyway.
 */
function markdownText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, '$1')
    .replace(/<\/?(?:table|thead|tbody|tr|td|th|br|sup|sub)\b[^<>]*>/gi, ' ');
}

/** pdftotext's words of the file, or the reason it read none. */
async function referenceWords(path: string): Promise<string[] | Error> {
  try {
    const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', '-q', path, '-'], { maxBuffer: 256 * 1024 * 1024 });
    return textWords(stdout);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

interface Kept {
  file: string;
  reference: number;
  output: number;
  recall: number;
  precision: number;
  /** pdftotext's words docmill lacks, in pdftotext's order. */
  lost: string[];
}

function compare(file: string, reference: readonly string[], output: readonly string[]): Kept {
  const have = wordCounts(output);
  const lost: string[] = [];
  let held = 0;
  for (const word of reference) {
    const count = have.get(word) ?? 0;
    if (count > 0) {
      have.set(word, count - 1);
      held++;
    } else lost.push(word);
  }
  return {
    file,
    reference: reference.length,
    output: output.length,
    recall: reference.length === 0 ? 1 : held / reference.length,
    precision: output.length === 0 ? (reference.length === 0 ? 1 : 0) : held / output.length,
    lost,
  };
}

async function main(): Promise<void> {
  await run('pdftotext', ['-v']).catch(() => {
    throw new Error('pdftotext is not installed: apt-get update && apt-get install -y poppler-utils');
  });
  const folder = await pdfFolder();
  const files = readdirSync(folder).filter((name) => name.toLowerCase().endsWith('.pdf')).sort();
  const entry = join(REPO, 'dist/src/index.js');
  if (!existsSync(entry)) throw new Error('dist/ is missing: npm run build');
  const lib = (await import(pathToFileURL(entry).href)) as typeof Docmill;
  const engine = new lib.LocalParseEngine({ size: threads });
  const options = { parsers: [{ type: 'pdf' as const, mode }] };
  const results: Kept[] = [];
  const failed: string[] = [];
  try {
    await Promise.all(
      files.map(async (name) => {
        const path = join(folder, name);
        const reference = await referenceWords(path);
        if (reference instanceof Error) return void failed.push(`${name}: pdftotext: ${reference.message.split('\n')[0]}`);
        try {
          const { data } = await engine.parse(await lib.localFileSource(path), options);
          results.push(compare(name, reference, textWords(markdownText(data.markdown ?? ''))));
        } catch (error) {
          failed.push(`${name}: docmill: ${error instanceof Error ? error.message : String(error)}`);
        }
      }),
    );
  } finally {
    await engine.close();
  }
  results.sort((a, b) => a.recall - b.recall || a.file.localeCompare(b.file));
  const under = results.filter((result) => result.recall < below);
  console.log(`docmill benchmark: text kept, docmill's Markdown (mode ${mode}) against pdftotext's words`);
  console.log(`  command: npx tsx bench/pdf-text-kept.ts ${process.argv.slice(2).join(' ')}`.trimEnd());
  console.log(`  folder: ${folder}; ${files.length} PDFs, ${results.length} read by both; date ${new Date().toISOString()}; node ${process.version}`);
  console.log('');
  if (under.length > 0) {
    console.log(
      markdownTable(
        ['document', 'pdftotext words', 'docmill words', 'recall', 'precision', `words lost (first ${shown})`],
        under.map((r) => [r.file, String(r.reference), String(r.output), r.recall.toFixed(3), r.precision.toFixed(3), r.lost.slice(0, shown).join(' ')]),
      ),
    );
    console.log('');
  }
  const mean = (pick: (result: Kept) => number) => results.reduce((sum, result) => sum + pick(result), 0) / Math.max(1, results.length);
  console.log(`mean recall ${mean((r) => r.recall).toFixed(4)}, mean precision ${mean((r) => r.precision).toFixed(4)}; ${under.length} of ${results.length} documents under ${below}`);
  for (const line of failed.sort()) console.log(`  not compared: ${line}`);
  if (files.length === 0) console.log(`  no PDF in ${basename(folder)}`);
}

await main();
