/**
 * One engine of the PDF structure benchmark (bench/pdf-bench.ts), in a process of its own so that its memory is
 * its own:
 *
 *   node pdf-bench-child.js --engine E --threads N --list FILE --out DIR [--warmup N] [--docmill-entry FILE] [--liteparse-entry FILE]
 *
 * bench/pdf-bench.ts runs it transpiled to plain JavaScript (bench/lib/plain-node.ts), so that no loader adds to
 * the memory measured; with docmill from its TypeScript sources it must run under `--import tsx`.
 *
 * FILE lists the PDFs, one path a line. The engine starts and converts every PDF once untimed (the warm-up: module
 * loading, JIT, every thread or worker started; its Markdown is written to DIR/<id>.md), and as many times more as
 * --warmup says beyond one (JIT compilers settle over several hundred pages a thread), then prints `ready`.
 * Protocol on stdin/stdout, a line each: `go` converts them all once more, timed (wall clock from the first
 * submission to the last answer, every document submitted at once and N worked on at a time), and answers
 * `{"ms":…,"cpuMs":…}` (CPU time of the process and its live descendants over the round); `end` (or the end of stdin) answers with a ChildReport and exits. The parent interleaves the rounds
 * of all engines, so that a change in the machine's load falls on each of them alike.
 *
 * Engines: docmill-fast / docmill-auto / docmill-ocr (LocalParseEngine of N threads, `parsers: [{type: 'pdf', mode}]`, Markdown),
 * liteparse (outputFormat markdown, OCR off; N > 1: its pool of N worker processes, else in this process),
 * pdftotext (poppler, one process per document, N at once, default reading-order mode), none (nothing: the memory
 * of a bare child, for reference).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createInterface } from 'node:readline';
import { parseArgs, promisify } from 'node:util';
import type * as Docmill from '../../src/index.js';
import { treeCpuMs, treePeakRssKb } from './process-memory.js';

export type EngineName = 'docmill-fast' | 'docmill-auto' | 'docmill-ocr' | 'liteparse' | 'pdftotext';

export interface ChildReport {
  engine: EngineName | 'none';
  /** What ran: library and version, options. */
  describe: string;
  /** From process start until the engine could take a document (ms). */
  startupMs: number;
  warmupMs: number;
  /** Pages converted in one pass, as the engine counts them. */
  pages: number;
  documents: number;
  failures: { id: string; error: string }[];
  /** Documents whose Markdown in some timed round differs from the warm-up's. */
  unstable: number;
  /** Σ VmHWM over this process and its live descendants, or for pdftotext the largest pdftotext process (kB). */
  peakRssKb: number | undefined;
  peakRssProcesses: number;
}

interface Converted {
  markdown: string;
  pages: number;
}

interface Converter {
  describe: string;
  /** How many documents to hand over at once (the engine queues the rest itself when it has a pool). */
  concurrency: number;
  convert(path: string, measureMemory: boolean): Promise<Converted>;
  /** Peak memory, read before close. */
  peak(): { kb: number; processes: number } | undefined;
  close(): Promise<void>;
}

async function docmill(mode: 'fast' | 'auto' | 'ocr', threads: number, entry: string): Promise<Converter> {
  const lib = (await import(pathToFileURL(entry).href)) as typeof Docmill;
  const engine = new lib.LocalParseEngine({ size: threads });
  const options = { parsers: [{ type: 'pdf' as const, mode }] };
  return {
    describe: `docmill LocalParseEngine({ size: ${threads} }) from ${entry.endsWith('.js') ? 'dist' : 'src'}, parse(localFileSource(pdf), { parsers: [{ type: 'pdf', mode: '${mode}' }] })`,
    concurrency: Number.POSITIVE_INFINITY,
    async convert(path) {
      const { data } = await engine.parse(await lib.localFileSource(path), options);
      return { markdown: data.markdown ?? '', pages: data.metadata?.numPages ?? 1 };
    },
    peak: () => treePeakRssKb(),
    close: () => engine.close(),
  };
}

/** The part of LiteParse's API used here (its full types: dist/lib.d.ts of the installed package). */
interface LiteParseModule {
  LiteParse: new (config: Record<string, unknown>) => {
    parse(input: string): Promise<{ text: string; totalPages: number }>;
    warmUp(): Promise<void>;
    close(): void;
  };
}

async function liteparse(threads: number, entry: string): Promise<Converter> {
  const { LiteParse } = (await import(pathToFileURL(entry).href)) as LiteParseModule;
  const version = (JSON.parse(readFileSync(join(entry, '../../package.json'), 'utf8')) as { version: string }).version;
  // PDFium is not thread-safe: one process parses one document at a time, so N > 1 takes LiteParse's pool of N
  // worker processes. OCR off: its OCR fetches language data at run time.
  const config = { outputFormat: 'markdown', ocrEnabled: false, quiet: true, ...(threads > 1 ? { poolSize: threads } : {}) };
  const parser = new LiteParse(config);
  await parser.warmUp();
  return {
    describe: `@llamaindex/liteparse ${version}, new LiteParse(${JSON.stringify(config)}).parse(pdf).text`,
    concurrency: Number.POSITIVE_INFINITY,
    async convert(path) {
      const result = await parser.parse(path);
      return { markdown: result.text, pages: result.totalPages };
    },
    peak: () => treePeakRssKb(),
    close: async () => parser.close(),
  };
}

async function pdftotext(threads: number): Promise<Converter> {
  const run = promisify(execFile);
  const { stderr } = await run('pdftotext', ['-v']);
  let largestKb: number | undefined;
  return {
    describe: `${stderr.split('\n')[0] ?? 'pdftotext'}: pdftotext -enc UTF-8 PDF - (one process per document, ${threads} at once)`,
    concurrency: threads,
    async convert(path, measureMemory) {
      // Memory only in the untimed pass: GNU time's %M is the child's peak resident set in kB.
      const { stdout, stderr: err } = measureMemory
        ? await run('/usr/bin/time', ['-f', '%M', 'pdftotext', '-enc', 'UTF-8', path, '-'], { maxBuffer: 64 << 20 })
        : await run('pdftotext', ['-enc', 'UTF-8', path, '-'], { maxBuffer: 64 << 20 });
      if (measureMemory) {
        const kb = Number(err.trim().split('\n').pop());
        if (Number.isFinite(kb)) largestKb = Math.max(largestKb ?? 0, kb);
      }
      // pdftotext ends every page with a form feed.
      return { markdown: stdout, pages: Math.max(1, (stdout.match(/\f/g) ?? []).length) };
    },
    peak: () => (largestKb === undefined ? undefined : { kb: largestKb, processes: 1 }),
    close: async () => {},
  };
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Math.max(1, Math.min(limit, items.length));
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await fn(items[index] as T);
      }
    }),
  );
  return results;
}

type Outcome = { ok: true; converted: Converted } | { ok: false; error: string };

async function pass(converter: Converter, files: string[], measureMemory: boolean): Promise<{ ms: number; outcomes: Outcome[] }> {
  const started = performance.now();
  const outcomes = await mapLimit(files, converter.concurrency, async (path): Promise<Outcome> => {
    try {
      return { ok: true, converted: await converter.convert(path, measureMemory) };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
    }
  });
  return { ms: performance.now() - started, outcomes };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      engine: { type: 'string' },
      threads: { type: 'string', default: '1' },
      list: { type: 'string' },
      out: { type: 'string' },
      warmup: { type: 'string', default: '1' },
      'docmill-entry': { type: 'string' },
      'liteparse-entry': { type: 'string' },
    },
    strict: true,
  });
  const engine = values.engine as EngineName | 'none';
  const threads = Number(values.threads);
  const warmups = Math.max(1, Number(values.warmup));
  const files = engine === 'none' ? [] : readFileSync(values.list ?? '', 'utf8').split('\n').filter(Boolean);
  const out = values.out ?? '';

  let converter: Converter | undefined;
  if (engine === 'docmill-fast' || engine === 'docmill-auto' || engine === 'docmill-ocr') {
    converter = await docmill(engine === 'docmill-fast' ? 'fast' : engine === 'docmill-auto' ? 'auto' : 'ocr', threads, values['docmill-entry'] ?? '');
  } else if (engine === 'liteparse') {
    converter = await liteparse(threads, values['liteparse-entry'] ?? '');
  } else if (engine === 'pdftotext') {
    converter = await pdftotext(threads);
  } else if (engine !== 'none') {
    throw new Error(`unknown engine ${String(engine)}`);
  }
  const startupMs = performance.now();

  const failures: ChildReport['failures'] = [];
  let pages = 0;
  let warm: Awaited<ReturnType<typeof pass>> = { ms: 0, outcomes: [] };
  if (converter) {
    await mkdir(out, { recursive: true });
    warm = await pass(converter, files, true);
    for (let more = 1; more < warmups; more++) warm.ms += (await pass(converter, files, false)).ms;
    const id = (path: string) => basename(path).replace(/\.pdf$/i, '');
    for (const [i, outcome] of warm.outcomes.entries()) {
      const path = files[i] as string;
      if (outcome.ok) {
        pages += outcome.converted.pages;
        await writeFile(join(out, `${id(path)}.md`), outcome.converted.markdown);
      } else {
        failures.push({ id: id(path), error: outcome.error.slice(0, 300) });
      }
    }
  }
  process.stdout.write('ready\n');

  const unstable = new Set<number>();
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === 'end') break;
    if (line.trim() !== 'go' || !converter) continue;
    const cpuBefore = treeCpuMs();
    const timed = await pass(converter, files, false);
    const cpuAfter = treeCpuMs();
    timed.outcomes.forEach((outcome, i) => {
      const before = warm.outcomes[i];
      const same = outcome.ok && before?.ok ? outcome.converted.markdown === before.converted.markdown : outcome.ok === before?.ok;
      if (!same) unstable.add(i);
    });
    // CPU time of this process and its workers over the round: a figure a machine shared with other work changes
    // less than wall time (the work's own, whoever else runs).
    const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
    process.stdout.write(`${JSON.stringify({ ms: timed.ms, cpuMs })}\n`);
  }

  const peak = converter ? converter.peak() : treePeakRssKb();
  await converter?.close();
  const report: ChildReport = {
    engine,
    describe: converter?.describe ?? 'node alone, no engine',
    startupMs,
    warmupMs: warm.ms,
    pages,
    documents: files.length,
    failures,
    unstable: unstable.size,
    peakRssKb: peak?.kb,
    peakRssProcesses: peak?.processes ?? 0,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

await main();
