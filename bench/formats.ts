/**
 * Benchmark "local engine formats" (issue 9). Run by hand, never by the tests:
 *
 *   npx tsx bench/formats.ts                      # about 1.5 minutes on a 2-core machine at load 7-8
 *   npx tsx bench/formats.ts --rounds 1 --formats docx,pdf,xlsx   # a quick look
 *
 * Per format (file extension), on the same fixtures in the same run: docmill's local engine against officeparser
 * (npm), both called as a library user calls them, one file at a time:
 * - docmill: `parseFile(path, { backend })` from src/index.ts with one `LocalParseEngine({ size: 1 })` reused for
 *   every call (one engine thread), default parse options (Markdown, main content only); its `markdown`.
 * - officeparser: `OfficeConverter.convert(path, 'md')` with images left out of the Markdown, no OCR, no
 *   attachments (its defaults would inline every image as base64). It is installed on first run, outside
 *   docmill's dependencies, with `npm install --prefix ~/.cache/docmill-bench/officeparser-<version>` and imported
 *   from there by absolute path (bench/lib/officeparser.ts). It decides by the file's extension as a user calling
 *   it gets; --officeparser-hints passes its `fileType` for the extensions whose container it reads under another
 *   name (.htm/.xhtml as html, .docm as docx, .xlsm as xlsx, .pptm as pptx). Its console output is silenced.
 *
 * Files: every file of <corpus>/<ext>/ (default test/fixtures/corpus) but the `<stem>.expected.md` references.
 * - Invalid fixtures, by name: EMPTY-*, TRUNCATED-*, and the password-protected ones (pass_protected, password*,
 *   protected_pass*, *encrypted*). They are expected failures: each tool should fail them, with a reason that names
 *   the cause (docmill: EMPTY_DOCUMENT, CORRUPT_DOCUMENT, ENCRYPTED_DOCUMENT; officeparser has no codes, so its
 *   message is matched: empty/zero bytes; corrupt/truncated/invalid structure; password/encrypted/protected).
 *   They are parsed once, not timed, and reported apart.
 * - Every other file is valid: a tool converted it when it returned Markdown without throwing (an empty Markdown
 *   for an image-only PDF still counts as converted). officeparser's "currently supports ... files only" is
 *   reported as "refused", with its message; other throws are failures, with docmill's error code or
 *   officeparser's message.
 *
 * Word recall, per file with a reference (<stem>.expected.md, other converters' output: a guide, not an oracle):
 * both the reference and the output are reduced to words (bench/lib/word-recall.ts: Markdown and HTML syntax
 * removed, i.e. front matter, tags, link and image targets, {#ids}, table rules, markers; NFKC, lowercased; runs of
 * letters, marks and digits, so punctuation never counts); recall = the share of the reference's words, counted
 * as a multiset, that the output has (Σ min(ref[w], out[w]) / Σ ref[w]). A file a tool failed or refused scores 0.
 * A format's recall is the mean over its files with a reference. The references come from converters that keep a
 * web page's navigation and sidebars, which docmill's default (onlyMainContent: true) drops by design, so docmill
 * is also run once with onlyMainContent: false on the files with a reference, and its recall printed below the
 * table where it differs (the verdict uses the default).
 *
 * Speed: a first untimed pass collects the outputs and warms both tools up (module loading, JIT, docmill's engine
 * thread). Then --rounds timed passes: in each, every valid file goes through both tools one after the other,
 * alternating which goes first from round to round. files/s = the files a tool converted / the median over rounds
 * of the time it spent on them (file read included for both), with the min–max over rounds. The ratio column compares the two on the files both
 * converted, so on the same work.
 *
 * Target (issue 9): every format converted (all its valid files) by docmill, and docmill's recall at or above
 * the best of the two on each format with a reference. The verdict column says met / MISSED per format.
 *
 * Flags: --rounds N (3) · --corpus DIR (test/fixtures/corpus) · --formats ext,ext (all) · --officeparser-hints
 *        --officeparser-version V (7.8.0) · --cache-dir DIR (~/.cache/docmill-bench) · --help
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus, homedir, loadavg } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { LocalParseEngine, parseFile, type ParseOptionsInput } from '../src/index.js';
import { DEFAULT_OFFICEPARSER_VERSION, loadOfficeParser, type OfficeParser } from './lib/officeparser.js';
import { markdownWords, wordRecall } from './lib/word-recall.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const THIS_FILE = fileURLToPath(import.meta.url);

const { values: flags } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    corpus: { type: 'string', default: resolve(REPO, 'test/fixtures/corpus') },
    formats: { type: 'string' },
    'officeparser-hints': { type: 'boolean', default: false },
    'officeparser-version': { type: 'string', default: DEFAULT_OFFICEPARSER_VERSION },
    'cache-dir': { type: 'string', default: join(homedir(), '.cache', 'docmill-bench') },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});

function int(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, not ${text}`);
  return value;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

// ---------------------------------------------------------------------------------------------------------------
// Fixtures

type InvalidKind = 'empty' | 'truncated' | 'encrypted';

interface Fixture {
  ext: string;
  path: string;
  /** <ext>/<file name>, for display. */
  name: string;
  invalid: InvalidKind | undefined;
  reference: string | undefined;
}

function invalidKind(fileName: string): InvalidKind | undefined {
  if (/^EMPTY-/.test(fileName)) return 'empty';
  if (/^TRUNCATED-/.test(fileName)) return 'truncated';
  if (/pass_?protected|^password|protected_pass|encrypted/i.test(fileName)) return 'encrypted';
  return undefined;
}

function listFixtures(corpus: string, only: Set<string> | undefined): Fixture[] {
  const fixtures: Fixture[] = [];
  for (const folder of readdirSync(corpus, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    for (const entry of readdirSync(join(corpus, folder.name), { withFileTypes: true })) {
      if (!entry.isFile() || entry.name.endsWith('.expected.md') || entry.name === 'SOURCES.md') continue;
      const ext = extname(entry.name).slice(1).toLowerCase();
      if (!ext || (only && !only.has(ext))) continue;
      const path = join(corpus, folder.name, entry.name);
      const referencePath = join(corpus, folder.name, `${entry.name.slice(0, -ext.length - 1)}.expected.md`);
      fixtures.push({
        ext,
        path,
        name: `${folder.name}/${entry.name}`,
        invalid: invalidKind(entry.name),
        reference: existsSync(referencePath) ? readFileSync(referencePath, 'utf8') : undefined,
      });
    }
  }
  return fixtures.sort((a, b) => a.ext.localeCompare(b.ext) || a.name.localeCompare(b.name));
}

// ---------------------------------------------------------------------------------------------------------------
// The two tools, behind one shape

type Outcome =
  | { ok: true; markdown: string; warning: string | undefined; ms: number }
  | { ok: false; refused: boolean; reason: string; code: string | undefined; ms: number };

interface Tool {
  name: string;
  convert(fixture: Fixture): Promise<{ markdown: string; warning?: string | undefined }>;
  describeError(error: unknown): { refused: boolean; reason: string; code: string | undefined };
}

async function attempt(tool: Tool, fixture: Fixture): Promise<Outcome> {
  const started = performance.now();
  try {
    const { markdown, warning } = await tool.convert(fixture);
    return { ok: true, markdown, warning, ms: performance.now() - started };
  } catch (error) {
    return { ok: false, ...tool.describeError(error), ms: performance.now() - started };
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
}

function docmillTool(engine: LocalParseEngine, parseOptions: ParseOptionsInput = {}): Tool {
  return {
    name: 'docmill',
    async convert(fixture) {
      const data = await parseFile(fixture.path, { backend: engine, parseOptions });
      return { markdown: data.markdown ?? '', warning: data.warning ?? undefined };
    },
    describeError(error) {
      const fields = (error ?? {}) as { apiCode?: unknown; code?: unknown };
      const code = typeof fields.apiCode === 'string' ? fields.apiCode : typeof fields.code === 'string' ? fields.code : 'error';
      return { refused: false, reason: messageOf(error), code };
    },
  };
}

const OFFICEPARSER_HINTS: Record<string, string> = { htm: 'html', xhtml: 'html', docm: 'docx', xlsm: 'xlsx', pptm: 'pptx' };

function officeParserTool(parser: OfficeParser, hints: boolean): Tool {
  return {
    name: 'officeparser',
    async convert(fixture) {
      // xmldom and pdfjs inside officeparser print warnings for malformed input; they are noise in the report.
      const saved = { log: console.log, warn: console.warn, error: console.error, info: console.info, debug: console.debug };
      const quiet = () => undefined;
      Object.assign(console, { log: quiet, warn: quiet, error: quiet, info: quiet, debug: quiet });
      try {
        return { markdown: await parser.toMarkdown(fixture.path, hints ? OFFICEPARSER_HINTS[fixture.ext] : undefined) };
      } finally {
        Object.assign(console, saved);
      }
    },
    describeError(error) {
      const reason = messageOf(error);
      return { refused: /currently supports .* files only/i.test(reason), reason, code: undefined };
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Judging expected failures

const SENSIBLE: Record<InvalidKind, { code: string; message: RegExp }> = {
  empty: { code: 'EMPTY_DOCUMENT', message: /empty|zero bytes|0 bytes/i },
  truncated: { code: 'CORRUPT_DOCUMENT', message: /corrupt|truncat|invalid .*structure|damaged/i },
  encrypted: { code: 'ENCRYPTED_DOCUMENT', message: /password|encrypt|protected/i },
};

function judgeExpectedFailure(kind: InvalidKind, outcome: Outcome, byCode: boolean): string {
  if (outcome.ok) return `NOT reported: converted (${markdownWords(outcome.markdown).length} words)`;
  const sensible = byCode ? outcome.code === SENSIBLE[kind].code : SENSIBLE[kind].message.test(outcome.reason);
  const what = outcome.refused ? 'refused' : 'failed';
  const shown = byCode ? `${outcome.code}: ${outcome.reason}` : outcome.reason;
  return `${what}, reason ${sensible ? 'names the cause' : 'does NOT name the cause'}: ${shown.slice(0, 160)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Table helpers

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

const fixed = (value: number | undefined, digits: number) => (value === undefined || !Number.isFinite(value) ? '-' : value.toFixed(digits));

async function describeCommit(): Promise<string> {
  const git = (args: string[]) => promisify(execFile)('git', args, { cwd: REPO }).then((r) => r.stdout.trim());
  try {
    const commit = await git(['rev-parse', '--short', 'HEAD']);
    const dirty = await git(['status', '--porcelain', '--', 'src', 'workers']);
    return dirty ? `${commit} (src/workers with uncommitted changes)` : commit;
  } catch {
    return 'unknown';
  }
}

// ---------------------------------------------------------------------------------------------------------------

interface FileResult {
  fixture: Fixture;
  first: Outcome[];
  /** docmill with onlyMainContent: false, for files with a reference (untimed). */
  allContent: Outcome | undefined;
  /** Per tool: ms per timed round. */
  timedMs: number[][];
}

async function main(): Promise<void> {
  const rounds = int('rounds', flags.rounds);
  const only = flags.formats ? new Set(flags.formats.split(',').map((f) => f.trim().replace(/^\./, '').toLowerCase())) : undefined;
  const fixtures = listFixtures(resolve(flags.corpus), only);
  if (fixtures.length === 0) throw new Error(`no fixtures in ${flags.corpus}${only ? ` for ${[...only].join(',')}` : ''}`);
  const commit = await describeCommit();
  console.log(`docmill formats benchmark · ${new Date().toISOString()} · commit ${commit} · node ${process.version}`);
  console.log(`corpus ${flags.corpus}: ${fixtures.length} files in ${new Set(fixtures.map((f) => f.ext)).size} formats · rounds ${rounds}`);
  console.log(`load average at the start: ${load()} (1, 5, 15 min; ${cpus().length} CPUs)`);

  const parser = await loadOfficeParser(flags['cache-dir'], flags['officeparser-version'], (l) => console.log(l));
  console.log(`officeparser ${parser.version} from ${parser.directory}${flags['officeparser-hints'] ? ' (with fileType hints)' : ''}`);
  const engine = new LocalParseEngine({ size: 1 });
  const tools = [docmillTool(engine), officeParserTool(parser, flags['officeparser-hints'])];
  const docmillAllContent = docmillTool(engine, { onlyMainContent: false });
  const results: FileResult[] = [];
  const started = performance.now();
  try {
    // Pass 0: outputs and errors, and the warm-up of both tools.
    for (const fixture of fixtures) {
      const first: Outcome[] = [];
      for (const tool of tools) first.push(await attempt(tool, fixture));
      const allContent = fixture.reference !== undefined && !fixture.invalid ? await attempt(docmillAllContent, fixture) : undefined;
      results.push({ fixture, first, allContent, timedMs: tools.map(() => []) });
    }
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const result of results) {
        if (result.fixture.invalid) continue;
        for (const t of order) {
          const tool = tools[t];
          if (!tool || !result.first[t]?.ok) continue;
          const outcome = await attempt(tool, result.fixture);
          result.timedMs[t]?.push(outcome.ms);
        }
      }
    }
  } finally {
    await engine.close();
  }
  const wallSeconds = (performance.now() - started) / 1000;

  // Per format.
  const formats = [...new Set(fixtures.map((f) => f.ext))];
  const rows: string[][] = [];
  let met = 0;
  const missed: string[] = [];
  const allContentNotes: string[] = [];
  for (const ext of formats) {
    const all = results.filter((r) => r.fixture.ext === ext);
    const valid = all.filter((r) => !r.fixture.invalid);
    const invalid = all.length - valid.length;
    const converted = tools.map((_, t) => valid.filter((r) => r.first[t]?.ok).length);
    const refused = tools.map((_, t) => valid.filter((r) => { const o = r.first[t]; return o && !o.ok && o.refused; }).length);
    const withReference = valid.filter((r) => r.fixture.reference !== undefined);
    const meanRecall = (outcomeOf: (r: FileResult) => Outcome | undefined) => {
      if (withReference.length === 0) return undefined;
      const scores = withReference.map((r) => {
        const o = outcomeOf(r);
        return o?.ok ? (wordRecall(r.fixture.reference ?? '', o.markdown) ?? 0) : 0;
      });
      return scores.reduce((a, b) => a + b, 0) / scores.length;
    };
    const recall = tools.map((_, t) => meanRecall((r) => r.first[t]));
    const allContentRecall = meanRecall((r) => r.allContent);
    if (allContentRecall !== undefined && fixed(allContentRecall, 3) !== fixed(recall[0], 3)) {
      allContentNotes.push(`.${ext} ${fixed(allContentRecall, 3)} (default ${fixed(recall[0], 3)})`);
    }
    // files/s over each tool's converted files: converted / median over rounds of the summed time.
    const roundTotals = (t: number, files: FileResult[]) =>
      Array.from({ length: rounds }, (_, round) => files.reduce((sum, r) => sum + (r.timedMs[t]?.[round] ?? 0), 0));
    const roundTotal = (t: number, files: FileResult[]) => median(roundTotals(t, files));
    const speedCell = (t: number) => {
      const files = valid.filter((r) => r.first[t]?.ok);
      const totals = roundTotals(t, files);
      if (!files.length || Math.min(...totals) <= 0) return '-';
      const perSecond = (ms: number) => files.length / (ms / 1000);
      const range = rounds > 1 ? ` (${fixed(perSecond(Math.max(...totals)), 1)}–${fixed(perSecond(Math.min(...totals)), 1)})` : '';
      return `${fixed(perSecond(median(totals)), 1)}${range}`;
    };
    const shared = valid.filter((r) => r.first[0]?.ok && r.first[1]?.ok);
    const sharedRatio = shared.length ? roundTotal(1, shared) / roundTotal(0, shared) : undefined;

    const allConverted = converted[0] === valid.length;
    const [docmillRecall, otherRecall] = recall;
    const recallOk = docmillRecall === undefined || docmillRecall >= (otherRecall ?? 0);
    const reasons = [
      ...(allConverted ? [] : [`${valid.length - (converted[0] ?? 0)} not converted`]),
      ...(recallOk ? [] : ['recall below officeparser']),
    ];
    if (reasons.length === 0) met++;
    else missed.push(`${ext} (${reasons.join(', ')})`);
    const convertedCell = (t: number) => {
      const r = refused[t] ?? 0;
      return `${converted[t]}/${valid.length}${r ? ` (${r} refused)` : ''}`;
    };
    const recallCell = (t: number) => (recall[t] === undefined ? '-' : `${fixed(recall[t], 3)}`);
    rows.push([
      `.${ext}`,
      `${valid.length}${invalid ? ` (+${invalid} invalid)` : ''}`,
      convertedCell(0),
      convertedCell(1),
      withReference.length ? `${recallCell(0)} (${withReference.length} ref)` : '- (no ref)',
      recallCell(1),
      speedCell(0),
      speedCell(1),
      sharedRatio === undefined ? '-' : `${fixed(sharedRatio, 2)} (${shared.length})`,
      reasons.length ? `MISSED: ${reasons.join(', ')}` : 'met',
    ]);
  }

  console.log('');
  printTable(
    [
      'format',
      'files',
      'docmill converted',
      'officeparser converted',
      'docmill recall',
      'officeparser recall',
      'docmill files/s',
      'officeparser files/s',
      'docmill/officeparser speed (shared files)',
      'verdict',
    ],
    rows,
  );
  console.log('');
  console.log(
    'recall: mean over the format\'s files with a reference (a failed or refused file scores 0) · files/s: over each tool\'s own ' +
      `converted files, median (min–max) of ${rounds} rounds · speed ratio: officeparser's time / docmill's on the files both converted (n)`,
  );
  if (allContentNotes.length) {
    console.log(`docmill recall with onlyMainContent: false (page chrome kept, as the references keep it): ${allContentNotes.join(', ')}`);
  }
  console.log(`Target (issue 9): every format converted, docmill recall ≥ the best of the two: ${met}/${formats.length} formats met${missed.length ? `; missed: ${missed.join('; ')}` : ''}`);

  console.log('');
  console.log('Failures on valid files (docmill: error code; officeparser: its message):');
  let failures = 0;
  for (const result of results.filter((r) => !r.fixture.invalid)) {
    result.first.forEach((o, t) => {
      if (o.ok) return;
      failures++;
      const label = o.refused ? 'refused' : 'failed';
      console.log(`  ${result.fixture.name} · ${tools[t]?.name} ${label}: ${o.code ? `${o.code}: ` : ''}${o.reason.slice(0, 180)}`);
    });
  }
  if (failures === 0) console.log('  none');

  console.log('');
  console.log('Converted with a warning (docmill):');
  const warned = results.filter((r) => { const o = r.first[0]; return o?.ok && o.warning; });
  for (const result of warned) {
    const o = result.first[0];
    if (o?.ok) console.log(`  ${result.fixture.name} (${markdownWords(o.markdown).length} words): ${o.warning}`);
  }
  if (warned.length === 0) console.log('  none');

  console.log('');
  console.log('Expected failures (invalid fixtures): did each tool report a failure, with a reason naming the cause?');
  for (const result of results.filter((r) => r.fixture.invalid)) {
    const kind = result.fixture.invalid as InvalidKind;
    console.log(`  ${result.fixture.name} (${kind})`);
    result.first.forEach((o, t) => console.log(`    ${tools[t]?.name}: ${judgeExpectedFailure(kind, o, t === 0)}`));
  }

  console.log('');
  console.log('Per file with a reference: word recall (reference words) · docmill · officeparser');
  for (const result of results.filter((r) => r.fixture.reference !== undefined && !r.fixture.invalid)) {
    const reference = result.fixture.reference ?? '';
    const cell = (o: Outcome) => (o.ok ? fixed(wordRecall(reference, o.markdown), 3) : o.refused ? 'refused' : 'failed');
    const cells = result.first.map(cell);
    const allContent = result.allContent ? cell(result.allContent) : undefined;
    const note = allContent !== undefined && allContent !== cells[0] ? ` (docmill with onlyMainContent: false ${allContent})` : '';
    console.log(`  ${result.fixture.name} (${markdownWords(reference).length}): ${cells.join(' · ')}${note}`);
  }

  console.log('');
  console.log(`wall time ${wallSeconds.toFixed(1)} s · load average at the end: ${load()} (1, 5, 15 min; ${cpus().length} CPUs)`);
}

if (flags.help) {
  const header = /\/\*\*([\s\S]*?)\*\//.exec(readFileSync(THIS_FILE, 'utf8'))?.[1] ?? '';
  console.log(header.replace(/^ \* ?/gm, '').trim());
} else {
  await main();
}
