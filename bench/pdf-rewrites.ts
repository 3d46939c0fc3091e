/**
 * Benchmark "PDF writers" (issue 25, quality that carries over): the PDF benchmark's pages as other writers and
 * printers write them again, scored as the originals are. The text and the layout stay; what a writer puts in its
 * fonts and content streams changes (font names, weights guessed from StemV, ToUnicode maps, how glyphs and paths
 * are drawn, the page's scale). Where docmill's score falls on a rewrite, a rule of its leans on one writer's habits:
 * a kind of PDF to mend, not a page. Run by hand, never by the tests:
 *
 *   npm run build && npx tsx bench/pdf-rewrites.ts               # every writer found here, docmill fast and LiteParse
 *   npx tsx bench/pdf-rewrites.ts --writers gs,scale70 --engines docmill-fast
 *
 * Writers (--writers, all by default; one whose tool is missing is skipped, said so):
 * - `gs`: Ghostscript's pdfwrite (`gs -sDEVICE=pdfwrite`), as print-to-PDF drivers and "optimise PDF" tools write:
 *   simple TrueType fonts, descriptors whose StemV it computes itself, its own ToUnicode maps. `apt-get install
 *   ghostscript`.
 * - `cairo`: poppler's `pdftocairo -pdf`, as GTK applications print: fonts renamed `CairoFont-N-M`, every hyphen
 *   mapped to U+00AD, text drawn glyph by glyph. Fonts the original maps to Unicode only through their own
 *   encodings lose their text (pages whose Markdown is then mostly U+FFFD say nothing of docmill). `poppler-utils`.
 * - `scale70`, `scale130`: each page drawn at 70 % (two pages to a sheet, a booklet) or 130 % of its size on a page
 *   as much smaller or larger (pdf-lib, a form XObject): every length in points changes, every ratio stays.
 * - `turned`: each page set on its side (/Rotate 90) with its content turned back, so that it shows as before
 *   (landscape sections, scanners' pages).
 * - `cut97`, `cut80`: the file's first 97 % or 80 % of its bytes, as an interrupted download or upload leaves it: its
 *   cross-reference table and trailer gone, at 80 % its last objects too (pictures, fonts, a content stream, by
 *   writer). A page a file no longer holds scores 0, as does a file an engine refuses.
 * - `scan`, `scan-askew`: each page printed and scanned as a searchable PDF, the way scanners and OCRmyPDF leave
 *   archives: drawn at 300 DPI in grey (`pdftoppm`) and read by tesseract into its PDF (`tesseract … pdf`: the
 *   picture under its OCR as invisible text, each word scaled across to fit its place). `scan-askew` first turns
 *   the page 0.5° to 2° round its centre (pdf-lib; the angle and its sense from the file's name), as a sheet fed
 *   askew. The text is tesseract's reading, misreadings and all: what a scan's scores say is how docmill reads the
 *   layer, beside LiteParse reading the same. `apt-get install poppler-utils tesseract-ocr`.
 *
 * Each rewrite goes into <out>/<writer>/pdfs beside a link to the references, and bench/pdf-bench.ts scores it
 * (--engines, one round: speed is not measured here; --before DIR scores another built checkout's docmill beside
 * this one's, as `<engine>@before`, in the same invocation). Printed: each engine's means on the originals and on
 * every rewrite, and docmill's pages that lose most on each rewrite against the originals.
 *
 * Flags: --dir DIR (the benchmark's pages, as bench/pdf-bench.ts finds them) · --writers LIST · --engines LIST
 *        (docmill-fast,liteparse) · --before DIR · --out DIR (a temporary folder, kept) · --worst N (8)
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { degrees, PDFDocument } from 'pdf-lib';
import { exitWithHelpIfAsked } from './lib/help.js';
import { defaultPdfBenchDirs, isPdfBenchDir } from './lib/pdf-bench-dir.js';
import { markdownTable } from './lib/table.js';

exitWithHelpIfAsked(import.meta.url);

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WRITERS = ['gs', 'cairo', 'scale70', 'scale130', 'turned', 'cut97', 'cut80', 'scan', 'scan-askew'] as const;
type Writer = (typeof WRITERS)[number];

const { values: flags } = parseArgs({
  options: {
    dir: { type: 'string' },
    writers: { type: 'string', default: WRITERS.join(',') },
    engines: { type: 'string', default: 'docmill-fast,liteparse' },
    out: { type: 'string' },
    before: { type: 'string' },
    worst: { type: 'string', default: '8' },
  },
  strict: true,
});

const run = promisify(execFile);

async function hasTool(command: string): Promise<boolean> {
  try {
    await run(command, ['--version']);
    return true;
  } catch (error) {
    // pdftocairo prints its version and exits 99; only a missing program fails to start.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** Draws every page of `bytes` through pdf-lib: at `scale`, or turned on its side with its content turned back. */
async function redrawn(bytes: Uint8Array, how: { scale: number } | 'turned'): Promise<Uint8Array> {
  const source = await PDFDocument.load(bytes, { ignoreEncryption: true });
  const out = await PDFDocument.create();
  for (const page of await out.embedPdf(source, source.getPageIndices())) {
    if (how === 'turned') {
      const turned = out.addPage([page.height, page.width]);
      turned.setRotation(degrees(90));
      turned.drawPage(page, { x: page.height, y: 0, rotate: degrees(90) });
    } else {
      out.addPage([page.width * how.scale, page.height * how.scale]).drawPage(page, { x: 0, y: 0, xScale: how.scale, yScale: how.scale });
    }
  }
  return out.save();
}

/** Every page of `bytes` turned `angle` degrees round its centre (counter-clockwise as the page is shown). */
async function askew(bytes: Uint8Array, angle: number): Promise<Uint8Array> {
  const source = await PDFDocument.load(bytes, { ignoreEncryption: true });
  const out = await PDFDocument.create();
  const radians = (angle * Math.PI) / 180;
  for (const page of await out.embedPdf(source, source.getPageIndices())) {
    const [cx, cy] = [page.width / 2, page.height / 2];
    // Drawn from (x, y) turned by the angle: the centre stays where it is.
    const x = cx - (cx * Math.cos(radians) - cy * Math.sin(radians));
    const y = cy - (cx * Math.sin(radians) + cy * Math.cos(radians));
    out.addPage([page.width, page.height]).drawPage(page, { x, y, rotate: degrees(angle) });
  }
  return out.save();
}

/** 0.5° to 2°, one way or the other, from the file's name: the same angle on every run. */
function askewAngle(file: string): number {
  let hash = 2166136261;
  for (const char of file) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return (0.5 + (hash % 151) / 100) * (hash % 2 === 0 ? 1 : -1);
}

/** The PDF's pages drawn at 300 DPI in grey and read by tesseract into a searchable PDF at `to`. */
async function scanned(from: string, to: string): Promise<void> {
  const picture = to.replace(/\.pdf$/, '');
  await run('pdftoppm', ['-r', '300', '-gray', '-png', '-singlefile', '-f', '1', '-l', '1', from, picture]);
  // One thread each: the pages are read side by side, one a core.
  await run('tesseract', [`${picture}.png`, picture, '--dpi', '300', '-l', 'eng', 'pdf'], { env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
  await rm(`${picture}.png`, { force: true });
}

async function rewrite(writer: Writer, from: string, to: string): Promise<void> {
  switch (writer) {
    case 'scan':
      await scanned(from, to);
      return;
    case 'scan-askew': {
      const turned = to.replace(/\.pdf$/, '.askew.pdf');
      await writeFile(turned, await askew(await readFile(from), askewAngle(from.split('/').pop()!)));
      await scanned(turned, to);
      await rm(turned, { force: true });
      return;
    }
    case 'gs':
      await run('gs', ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-sDEVICE=pdfwrite', `-sOutputFile=${to}`, from]);
      return;
    case 'cairo':
      await run('pdftocairo', ['-pdf', from, to]);
      return;
    case 'cut97':
    case 'cut80': {
      const bytes = await readFile(from);
      await writeFile(to, bytes.subarray(0, Math.floor((bytes.length * (writer === 'cut97' ? 97 : 80)) / 100)));
      return;
    }
    default: {
      const how = writer === 'turned' ? 'turned' : { scale: writer === 'scale70' ? 0.7 : 1.3 };
      await writeFile(to, await redrawn(await readFile(from), how));
    }
  }
}

const TOOLS: Partial<Record<Writer, string>> = { gs: 'gs', cairo: 'pdftocairo', scan: 'tesseract', 'scan-askew': 'tesseract' };

interface Scores {
  means: Record<string, number | undefined>;
  pages: Map<string, number>;
}

/** bench/pdf-bench.ts over `dir`, its results by engine. */
async function score(dir: string, out: string, engines: string): Promise<Map<string, Scores>> {
  await new Promise<void>((done, fail) => {
    const before = flags.before ? ['--before', resolve(flags.before)] : [];
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'bench/pdf-bench.ts'), '--dir', dir, '--engines', engines, '--rounds', '1', '--out', out, ...before], {
      stdio: ['ignore', 'ignore', 'inherit'],
      cwd: REPO,
    });
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`bench/pdf-bench.ts over ${dir} exited with ${code}`))));
  });
  const results = JSON.parse(await readFile(join(out, 'results.json'), 'utf8')) as {
    engines: { engine: string; means: Record<string, { mean: number } | undefined>; pages: Record<string, { overall?: number }> }[];
  };
  return new Map(
    results.engines.map((engine) => [
      engine.engine,
      {
        means: Object.fromEntries(['overall', 'nid', 'teds', 'mhs'].map((key) => [key, engine.means[key]?.mean])),
        pages: new Map(Object.entries(engine.pages).flatMap(([id, page]) => (page.overall === undefined ? [] : [[id, page.overall] as const]))),
      },
    ]),
  );
}

async function main(): Promise<void> {
  const dirs = flags.dir ? [resolve(flags.dir)] : await defaultPdfBenchDirs(REPO);
  const dir = dirs.find(isPdfBenchDir);
  if (!dir) throw new Error(`no benchmark pages (pdfs/ and ground-truth/) in ${dirs.join(' or ')}: pass --dir`);
  const wanted = flags.writers.split(',').map((name) => name.trim());
  for (const name of wanted) if (!(WRITERS as readonly string[]).includes(name)) throw new Error(`--writers: no writer ${name} (${WRITERS.join(', ')})`);
  const out = flags.out ? resolve(flags.out) : await mkdtemp(join(tmpdir(), 'docmill-pdf-rewrites-'));
  const files = (await readdir(join(dir, 'pdfs'))).filter((name) => name.endsWith('.pdf')).sort();
  const rows: string[][] = [];
  const docmillEngines = flags.engines.split(',').filter((engine) => engine.startsWith('docmill-'));
  const engines = [...flags.engines.split(','), ...(flags.before ? docmillEngines.map((engine) => `${engine}@before`) : [])];
  const original = await score(dir, join(out, 'original', 'results'), flags.engines);
  const line = (label: string, scores: Map<string, Scores>) => {
    for (const engine of engines) {
      const means = scores.get(engine)?.means ?? {};
      rows.push([label, engine, ...['overall', 'nid', 'teds', 'mhs'].map((key) => (means[key] === undefined ? '–' : means[key]!.toFixed(3)))]);
    }
  };
  line('original', original);
  const losses: string[] = [];
  for (const writer of wanted as Writer[]) {
    const tool = TOOLS[writer];
    if (tool && !(await hasTool(tool))) {
      process.stderr.write(`${writer}: skipped, ${tool} is not installed\n`);
      continue;
    }
    const folder = join(out, writer);
    await mkdir(join(folder, 'pdfs'), { recursive: true });
    await symlink(join(dir, 'ground-truth'), join(folder, 'ground-truth')).catch(() => undefined);
    let failed = 0;
    // As many at once as there are cores: a scan's OCR takes seconds a page.
    const queue = [...files];
    const rewriter = async () => {
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
        await rewrite(writer, join(dir, 'pdfs', file), join(folder, 'pdfs', file)).catch(() => failed++);
      }
    };
    await Promise.all(Array.from({ length: availableParallelism() }, rewriter));
    if (failed > 0) process.stderr.write(`${writer}: ${failed} of ${files.length} files could not be rewritten (left out)\n`);
    const scores = await score(folder, join(folder, 'results'), flags.engines);
    line(writer, scores);
    const before = original.get('docmill-fast')?.pages;
    const after = scores.get('docmill-fast')?.pages;
    if (before && after) {
      const worst = [...after]
        .map(([id, overall]) => ({ id, drop: (before.get(id) ?? overall) - overall }))
        .filter((page) => page.drop > 0.005)
        .sort((a, b) => b.drop - a.drop)
        .slice(0, Number(flags.worst));
      losses.push(`${writer}: ${worst.length === 0 ? 'no page lower' : worst.map((page) => `${page.id} −${page.drop.toFixed(3)}`).join(', ')}`);
    }
  }
  process.stdout.write(`Pages: ${dir} (${files.length}); rewrites and scores in ${out}\n\n`);
  process.stdout.write(`${markdownTable(['writer', 'engine', 'overall', 'NID', 'TEDS', 'MHS'], rows)}\n\n`);
  if (losses.length > 0) process.stdout.write(`docmill-fast's pages that lose most against the originals:\n${losses.map((text) => `- ${text}`).join('\n')}\n`);
}

await main();
