/**
 * Benchmark "PDF OCR" (issue 11). Run by hand, never by the tests:
 *
 *   npx tsx bench/ocr.ts                 # 8 pages, a few minutes on a loaded 2-core machine
 *   npx tsx bench/ocr.ts --pages 4       # a quick look
 *
 * docmill's OCR (tesseract.js 7, WebAssembly) against the native `tesseract` command line (Debian's
 * `tesseract-ocr`, installed with apt-get when missing), in the same run, on the same rendered pages, with the
 * same model: the LSTM `eng.traineddata` docmill reads English with (models/tessdata_fast), gunzipped into a temporary
 * tessdata folder for the command line (`--oem 1`, default page segmentation, TSV output: words with boxes, as
 * docmill asks tesseract.js for them).
 *
 * Pages: ocr_test.pdf and loremipsum-flat.pdf (the corpus's scans) and generated pages of running text
 * (bench/lib/text-pdf.ts), each rendered once at 300 DPI to greyscale by the engine's renderer (PDFium,
 * WebAssembly) and written as PGM files. The render time is reported apart.
 *
 * Measurements:
 * (a) one core: seconds per page, tesseract.js in one worker of this process (the engine's own
 *     `recogniseLines`, after a warm-up page) against `tesseract` run page after page with OMP_THREAD_LIMIT=1.
 *     Word recall of each against the page's text (the generated pages' text layer; docling's reference for
 *     ocr_test.pdf; loremipsum-flat.pdf has no reference and counts for speed only).
 * (b) the pool: each page as a one-page scanned PDF (the bitmap as an image XObject), all at once into
 *     `EngineThreadPool` of size N (cores) in mode ocr — render, OCR and layout, as `docmill serve` runs them —
 *     against `xargs -P N tesseract` on the PGM files. Warm-up: one document per thread first.
 *
 * Flags: --pages N (8, at least 3) · --threads N (cores) · --keep (leave the temporary folder)
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflateSync, gunzipSync } from 'node:zlib';
import { parseOptionsSchema } from '../src/contract/options.js';
import { parseDocument } from '../src/engine/engine.js';
import { languageDataFile } from '../src/engine/pdf/ocr/languages.js';
import { PageRenderer, toPgm, type GreyBitmap } from '../src/engine/pdf/ocr/render-page.js';
import { recogniseLines, terminateOcrWorkers } from '../src/engine/pdf/ocr/tesseract.js';
import { EngineThreadPool } from '../src/engine/thread-pool.js';
import { markdownTable } from './lib/table.js';
import { makeTextPdf } from './lib/text-pdf.js';
import { wordRecall } from './lib/word-recall.js';
import { exitWithHelpIfAsked } from './lib/help.js';
import { median } from './lib/median.js';

exitWithHelpIfAsked(import.meta.url);

const run = promisify(execFile);

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const PAGES = Math.max(3, flag('pages', 8));
const THREADS = flag('threads', availableParallelism());
const KEEP = process.argv.includes('--keep');
const CORPUS = new URL('../test/fixtures/corpus/pdf/', import.meta.url);

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

function ensureNativeTesseract(): string {
  try {
    return execFileSync('tesseract', ['--version'], { encoding: 'utf8' }).split('\n')[0]!;
  } catch {
    log('tesseract not found: apt-get install -y tesseract-ocr');
    execFileSync('apt-get', ['update'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', 'tesseract-ocr'], { stdio: 'inherit' });
    return execFileSync('tesseract', ['--version'], { encoding: 'utf8' }).split('\n')[0]!;
  }
}

interface BenchPage {
  name: string;
  pgm: string;
  bitmap: GreyBitmap;
  /** Reference text for word recall. */
  reference?: string;
}

function scannedPdf(bitmap: GreyBitmap): Uint8Array {
  const width = bitmap.width / bitmap.scale;
  const height = bitmap.height / bitmap.scale;
  const pixels = deflateSync(bitmap.pixels);
  const content = `q ${width.toFixed(2)} 0 0 ${height.toFixed(2)} 0 0 cm /Scan Do Q`;
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width.toFixed(2)} ${height.toFixed(2)}] /Resources << /XObject << /Scan 4 0 R >> >> /Contents 5 0 R >>`),
    Buffer.concat([
      Buffer.from(`<< /Type /XObject /Subtype /Image /Width ${bitmap.width} /Height ${bitmap.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${pixels.length} >>\nstream\n`),
      pixels,
      Buffer.from('\nendstream'),
    ]),
    Buffer.from(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(chunk);
    length += chunk.length;
  });
  let xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) xref += `${String(offset).padStart(10, '0')} 00000 n \n`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return new Uint8Array(Buffer.concat(parts));
}

async function preparePages(dir: string): Promise<{ pages: BenchPage[]; renderSeconds: number[] }> {
  const sources: { name: string; pdf: Uint8Array; page: number; reference?: string }[] = [
    {
      name: 'ocr_test.pdf',
      pdf: new Uint8Array(await readFile(new URL('ocr_test.pdf', CORPUS))),
      page: 1,
      reference: await readFile(new URL('ocr_test.expected.md', CORPUS), 'utf8'),
    },
    { name: 'loremipsum-flat.pdf', pdf: new Uint8Array(await readFile(new URL('loremipsum-flat.pdf', CORPUS))), page: 1 },
  ];
  const generated = new Uint8Array(makeTextPdf({ pages: PAGES - 2, seed: 11 }));
  const text = await parseDocument({
    bytes: generated,
    fileName: 'generated.pdf',
    options: parseOptionsSchema.parse({ parsers: [{ type: 'pdf', mode: 'fast', pages: true }] }),
  });
  for (let p = 1; p <= PAGES - 2; p++) {
    sources.push({ name: `generated p${p}`, pdf: generated, page: p, reference: text.pages?.[p - 1]?.markdown });
  }
  const pages: BenchPage[] = [];
  const renderSeconds: number[] = [];
  for (const [index, source] of sources.entries()) {
    const renderer = await PageRenderer.open(source.pdf);
    if (!renderer) throw new Error(`${source.name}: PDFium could not open it`);
    const started = performance.now();
    const bitmap = renderer.render(source.page);
    renderSeconds.push((performance.now() - started) / 1000);
    renderer.close();
    if (!bitmap) throw new Error(`${source.name}: page ${source.page} could not be rendered`);
    const pgm = join(dir, `page-${index}.pgm`);
    await writeFile(pgm, toPgm(bitmap));
    pages.push({ name: source.name, pgm, bitmap, ...(source.reference ? { reference: source.reference } : {}) });
  }
  return { pages, renderSeconds };
}

async function nativeTessdata(dir: string): Promise<string> {
  const english = languageDataFile('eng');
  if (!english) throw new Error('no English OCR data: models/tessdata_fast/eng.traineddata.gz is missing');
  const tessdata = join(dir, 'tessdata');
  await run('mkdir', ['-p', tessdata]);
  await writeFile(join(tessdata, 'eng.traineddata'), gunzipSync(await readFile(english)));
  return tessdata;
}

const ONE_THREAD = { ...process.env, OMP_THREAD_LIMIT: '1' };

/** The model and the TSV output (words with boxes) alone; a custom tessdata folder has no `configs/tsv`. */
function nativeArgs(tessdata: string): string[] {
  return ['--oem', '1', '--tessdata-dir', tessdata, '-l', 'eng', '-c', 'tessedit_create_txt=0', '-c', 'tessedit_create_tsv=1'];
}

async function nativeOcr(pgm: string, tessdata: string): Promise<string> {
  const { stdout } = await run('tesseract', [pgm, 'stdout', ...nativeArgs(tessdata)], {
    env: ONE_THREAD,
    maxBuffer: 64 * 1024 * 1024,
  });
  // TSV: the 12th column is the word's text (empty for block, paragraph and line rows).
  return stdout
    .split('\n')
    .slice(1)
    .map((row) => row.split('\t')[11] ?? '')
    .filter((word) => word.trim() !== '')
    .join(' ');
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const fmt = (value: number, digits = 2) => value.toFixed(digits);

async function main(): Promise<void> {
  const nativeVersion = ensureNativeTesseract();
  const dir = await mkdtemp(join(tmpdir(), 'docmill-ocr-bench-'));
  try {
    log(`rendering ${PAGES} pages at 300 DPI…`);
    const { pages, renderSeconds } = await preparePages(dir);
    const tessdata = await nativeTessdata(dir);

    log('(a) one core…');
    // Warm-up (worker start, model load, JIT) on the first page with its last pixel changed: the same bytes would be
    // answered from memory when that page is measured (recognition-memo.ts).
    const warmUp = await readFile(pages[0]!.pgm);
    warmUp.writeUInt8(warmUp.readUInt8(warmUp.length - 1) ^ 0xff, warmUp.length - 1);
    await recogniseLines(warmUp);
    await nativeOcr(pages[0]!.pgm, tessdata);
    const rows: string[][] = [];
    const jsSeconds: number[] = [];
    const nativeSeconds: number[] = [];
    const jsRecall: number[] = [];
    const nativeRecall: number[] = [];
    for (const page of pages) {
      const image = await readFile(page.pgm);
      let started = performance.now();
      const lines = await recogniseLines(image);
      const js = (performance.now() - started) / 1000;
      const jsText = lines.map((line) => line.words.map((word) => word.text).join(' ')).join('\n');
      started = performance.now();
      const nativeText = await nativeOcr(page.pgm, tessdata);
      const native = (performance.now() - started) / 1000;
      jsSeconds.push(js);
      nativeSeconds.push(native);
      const recallJs = page.reference ? wordRecall(page.reference, jsText) : undefined;
      const recallNative = page.reference ? wordRecall(page.reference, nativeText) : undefined;
      if (recallJs !== undefined) jsRecall.push(recallJs);
      if (recallNative !== undefined) nativeRecall.push(recallNative);
      rows.push([
        page.name,
        `${page.bitmap.width}×${page.bitmap.height}`,
        fmt(js),
        fmt(native),
        fmt(js / native),
        recallJs === undefined ? '–' : fmt(recallJs, 3),
        recallNative === undefined ? '–' : fmt(recallNative, 3),
      ]);
      log(`  ${page.name}: tesseract.js ${fmt(js)} s, tesseract ${fmt(native)} s`);
    }
    await terminateOcrWorkers();

    log(`(b) pool of ${THREADS} threads…`);
    const pdfs = pages.map((page) => scannedPdf(page.bitmap));
    const options = parseOptionsSchema.parse({ timeout: 300_000, parsers: [{ type: 'pdf', mode: 'ocr' }] });
    // A tesseract worker a thread (`--ocr-workers`), as tesseract runs one process a page: the default of one reads on one core.
    const pool = new EngineThreadPool({ size: THREADS, ocrWorkers: THREADS });
    let poolSeconds: number;
    try {
      await Promise.all(pdfs.slice(0, THREADS).map((pdf) => pool.run(pdf, 'warm-up.pdf', options)));
      const started = performance.now();
      await Promise.all(pdfs.map((pdf, i) => pool.run(pdf, `page-${i}.pdf`, options)));
      poolSeconds = (performance.now() - started) / 1000;
    } finally {
      await pool.close();
    }
    const list = pages.map((page) => page.pgm).join('\n');
    const nativeStarted = performance.now();
    await new Promise<void>((resolve, reject) => {
      const child = execFile(
        'sh',
        ['-c', `xargs -P ${THREADS} -I{} tesseract {} stdout ${nativeArgs(tessdata).join(' ')} > /dev/null 2>&1`],
        { env: ONE_THREAD },
        (error) => (error ? reject(error) : resolve()),
      );
      child.stdin?.end(`${list}\n`);
    });
    const nativePoolSeconds = (performance.now() - nativeStarted) / 1000;

    const out: string[] = [];
    out.push(`## OCR: tesseract.js in docmill against native tesseract (${new Date().toISOString().slice(0, 10)})`);
    out.push('');
    out.push(`${nativeVersion}; tesseract.js 7.0.0; model eng tessdata_fast (LSTM, docmill's models/tessdata_fast) for both; ${PAGES} pages at 300 DPI; ` +
      `${availableParallelism()} cores, load average ${loadavg().map((value) => fmt(value)).join(' ')} at the end.`);
    out.push('');
    out.push('(a) One core, seconds per page (tesseract.js in one worker; `tesseract` with OMP_THREAD_LIMIT=1), word recall against the page text:');
    out.push('');
    out.push(markdownTable(['page', 'pixels', 'tesseract.js s', 'tesseract s', 'ratio', 'recall js', 'recall native'], rows));
    out.push('');
    out.push(`Median per page: tesseract.js ${fmt(median(jsSeconds))} s, tesseract ${fmt(median(nativeSeconds))} s, ratio ` +
      `${fmt(median(jsSeconds) / median(nativeSeconds))} (totals ${fmt(sum(jsSeconds))} s / ${fmt(sum(nativeSeconds))} s = ` +
      `${fmt(sum(jsSeconds) / sum(nativeSeconds))}). Mean recall: tesseract.js ${fmt(sum(jsRecall) / jsRecall.length, 3)}, ` +
      `tesseract ${fmt(sum(nativeRecall) / nativeRecall.length, 3)}. Rendering (PDFium, 300 DPI greyscale): median ` +
      `${fmt(median(renderSeconds))} s per page.`);
    out.push('');
    out.push(`(b) ${pages.length} one-page scans at once: docmill's pool of ${THREADS} threads, mode ocr (render + OCR + layout): ` +
      `${fmt(poolSeconds)} s, ${fmt(pages.length / poolSeconds)} pages/s; \`xargs -P ${THREADS} tesseract\` on the PGM files: ` +
      `${fmt(nativePoolSeconds)} s, ${fmt(pages.length / nativePoolSeconds)} pages/s.`);
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await terminateOcrWorkers();
    if (KEEP) log(`kept ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
}

await main();
