/**
 * Benchmark "memory" (issue 3). Run by hand, never by the tests:
 *
 *   npm run build && npx tsx bench/memory.ts
 *
 * 8 files of 45 MiB (.pdf, sparse apart from a distinct head so no two share a sha256) are converted by
 * `node bin/docmill.js run <dir> --out <tmp> --api-url <server> --concurrency 8` (REDIS_URL, a bench queue) against
 * a loopback server that streams every upload to nowhere (it counts bytes, never keeps them), reads each upload
 * at a bounded rate (so the 8 uploads overlap) and answers `--latency` ms after the body ended, so all 8 are in
 * flight at once. The child's VmRSS is read from /proc/<pid>/status every 50 ms, and VmHWM (the kernel's own
 * peak) at the last read before it exits. For context, the same is printed for an idle `node -e` process and for
 * docmill converting 8 files of 1 KiB.
 *
 * docmill's API gate starts slowly (2 requests in flight, one more per success) so, with 8 files only, no more
 * than 4 would ever be in flight at once. Each run therefore lists --warmup tiny files first (`a-warmup-*.pdf`,
 * sorted before `big-*.pdf`; default concurrency − 2, the successes the gate needs to reach --concurrency). The
 * server answers its first --warmup requests after 100 ms, so the limit is at --concurrency before the large files
 * are ready to send, and it reports how many large uploads (more than 1 MiB received) were in flight at once.
 *
 * Flags: --files N (8) · --size-mb N (45, MiB) · --latency MS (2000) · --read-mbps N (per upload, 100; 0 = as fast
 *        as possible) · --concurrency N (8) · --warmup N (concurrency − 2) · --redis-url URL (redis://127.0.0.1:6379)
 *        --target-mb N (300)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { commandLine, runChild, shellQuote } from './lib/child.js';
import { deleteQueueKeys } from './lib/redis-cleanup.js';
import { exitWithHelpIfAsked } from './lib/help.js';

exitWithHelpIfAsked(import.meta.url);

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MiB = 1024 * 1024;

const { values: flags } = parseArgs({
  options: {
    files: { type: 'string', default: '8' },
    'size-mb': { type: 'string', default: '45' },
    latency: { type: 'string', default: '2000' },
    'read-mbps': { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '8' },
    warmup: { type: 'string' },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
    'target-mb': { type: 'string', default: '300' },
  },
  strict: true,
});

function num(name: string, text: string | undefined, min = 1): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < min) throw new Error(`--${name} must be a number ≥ ${min}, not ${text}`);
  return value;
}

/** Sparse files with a distinct head: 45 MiB each on paper, a few bytes on disk, distinct sha256. */
async function makeFiles(dir: string, count: number, bytes: number, warmup: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < warmup; i++) {
    const head = `%PDF-1.7\n% docmill memory bench warm-up ${i} ${randomBytes(16).toString('hex')}\n`;
    await writeFile(join(dir, `a-warmup-${i}.pdf`), head.padEnd(1024, ' '));
  }
  for (let i = 0; i < count; i++) {
    const handle = await open(join(dir, `big-${i}.pdf`), 'w');
    try {
      await handle.write(Buffer.from(`%PDF-1.7\n% docmill memory bench ${i} ${randomBytes(16).toString('hex')}\n`));
      await handle.truncate(bytes);
    } finally {
      await handle.close();
    }
  }
}

interface SinkServer {
  url: string;
  readonly maxInFlight: number;
  /** Most uploads in flight at once that had sent more than 1 MiB (the large files, not the warm-up ones). */
  readonly maxLargeInFlight: number;
  readonly requests: number;
  readonly bytes: number;
  close(): Promise<void>;
}

/** Streams uploads to nowhere at `readBytesPerSecond` each (0: unthrottled), answers `latencyMs` after the body. */
/** The first `fastRequests` requests (the warm-up files) are answered after 100 ms instead of `latencyMs`. */
async function startSinkServer(latencyMs: number, readBytesPerSecond: number, fastRequests: number): Promise<SinkServer> {
  let inFlight = 0;
  let maxInFlight = 0;
  let largeInFlight = 0;
  let maxLargeInFlight = 0;
  let requests = 0;
  let bytes = 0;
  const body = JSON.stringify({ success: true, data: { markdown: '# x', metadata: { numPages: 1 } } });
  const server = createServer((request, response) => {
    requests++;
    const delayMs = requests <= fastRequests ? Math.min(100, latencyMs) : latencyMs;
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const started = Date.now();
    let received = 0;
    let large = false;
    request.on('data', (chunk: Buffer) => {
      received += chunk.byteLength;
      if (!large && received > MiB) {
        large = true;
        largeInFlight++;
        maxLargeInFlight = Math.max(maxLargeInFlight, largeInFlight);
      }
      bytes += chunk.byteLength;
      if (readBytesPerSecond > 0) {
        const dueMs = (received / readBytesPerSecond) * 1000 - (Date.now() - started);
        if (dueMs > 5) {
          request.pause();
          setTimeout(() => request.resume(), dueMs);
        }
      }
    });
    request.on('end', () => {
      setTimeout(() => {
        inFlight--;
        if (large) largeInFlight--;
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
        response.end(body);
      }, delayMs);
    });
  });
  server.requestTimeout = 0;
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolvePromise);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get maxInFlight() {
      return maxInFlight;
    },
    get maxLargeInFlight() {
      return maxLargeInFlight;
    },
    get requests() {
      return requests;
    },
    get bytes() {
      return bytes;
    },
    close: () =>
      new Promise<void>((resolvePromise) => {
        server.closeAllConnections();
        server.close(() => resolvePromise());
      }),
  };
}

interface MemorySample {
  peakRssKiB: number;
  hwmKiB: number;
  samples: number;
}

/** Reads VmRSS and VmHWM of `pid` every `everyMs` until stopped; keeps the last VmHWM seen. */
function sampleMemory(pid: number, everyMs = 50): { stop(): MemorySample } {
  const result: MemorySample = { peakRssKiB: 0, hwmKiB: 0, samples: 0 };
  let stopped = false;
  const read = async () => {
    try {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      const rss = /VmRSS:\s+(\d+) kB/.exec(status);
      const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
      if (rss) result.peakRssKiB = Math.max(result.peakRssKiB, Number(rss[1]));
      if (hwm) result.hwmKiB = Math.max(result.hwmKiB, Number(hwm[1]));
      result.samples++;
    } catch {
      // the process has exited (or not started yet)
    }
  };
  void read();
  const timer = setInterval(() => {
    if (!stopped) void read();
  }, everyMs);
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
      return result;
    },
  };
}

interface Row {
  name: string;
  command: string;
  memory: MemorySample;
  wallMs: number;
  exit: string;
  server?: { maxInFlight: number; maxLargeInFlight: number; requests: number; bytes: number };
  notes: string[];
}

async function main(): Promise<void> {
  const files = num('files', flags.files);
  const sizeBytes = Math.round(num('size-mb', flags['size-mb']) * MiB);
  const latencyMs = num('latency', flags.latency, 0);
  const readMbps = num('read-mbps', flags['read-mbps'], 0);
  const concurrency = num('concurrency', flags.concurrency);
  const warmup = flags.warmup === undefined ? Math.max(0, concurrency - 2) : num('warmup', flags.warmup, 0);
  const targetMb = num('target-mb', flags['target-mb']);
  const redisUrl = flags['redis-url'] ?? 'redis://127.0.0.1:6379';
  if (!existsSync(join(REPO, 'dist/src/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` first');

  const work = await mkdtemp(join(tmpdir(), 'docmill-bench-mem-'));
  const rows: Row[] = [];
  console.log('docmill benchmark: memory');
  console.log(`  command: npx tsx bench/memory.ts ${process.argv.slice(2).map(shellQuote).join(' ')}`.trimEnd());
  console.log(
    `  machine: ${cpus().length} CPUs, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; RSS from /proc/<pid>/status every 50 ms`,
  );
  console.log(
    `  server: streams uploads to nowhere at ${readMbps > 0 ? `${readMbps} MiB/s per upload` : 'full speed'}, answers ${latencyMs} ms after each body`,
  );
  console.log(
    `  each docmill run lists ${warmup} warm-up files of 1 KiB first (the server answers its first ${warmup} requests after 100 ms), so that the gate's slow start reaches --concurrency ${concurrency}`,
  );
  console.log('');

  try {
    // Baseline: an idle node process.
    {
      let sampler: { stop(): MemorySample } | undefined;
      const args = ['-e', 'setTimeout(() => {}, 1500)'];
      const run = await runChild(process.execPath, args, {
        timeoutMs: 30_000,
        stdoutPath: join(work, 'idle.stdout'),
        stderrPath: join(work, 'idle.stderr'),
        onSpawn: (pid) => (sampler = sampleMemory(pid)),
      });
      rows.push({
        name: 'idle node (baseline)',
        command: commandLine({}, 'node', args),
        memory: sampler?.stop() ?? { peakRssKiB: 0, hwmKiB: 0, samples: 0 },
        wallMs: run.wallMs,
        exit: String(run.code ?? run.signal),
        notes: [],
      });
    }

    const docmillRun = async (name: string, fileBytes: number): Promise<void> => {
      const tag = name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
      const docs = join(work, `docs-${tag}`);
      const out = join(work, `out-${tag}`);
      await makeFiles(docs, files, fileBytes, warmup);
      const server = await startSinkServer(latencyMs, readMbps * MiB, warmup);
      const queue = `bench-mem-${randomUUID()}`;
      const args = ['bin/docmill.js', 'run', docs, '--out', out, '--api-url', server.url, '--concurrency', String(concurrency), '--queue', queue];
      const env: NodeJS.ProcessEnv = { ...process.env, REDIS_URL: redisUrl };
      delete env.DOCMILL_API_KEY;
      delete env.FIRECRAWL_API_KEY;
      let sampler: { stop(): MemorySample } | undefined;
      process.stdout.write(`  running ${name} … `);
      try {
        const run = await runChild(process.execPath, args, {
          cwd: REPO,
          env,
          timeoutMs: 300_000,
          stdoutPath: join(work, `${tag}.stdout`),
          stderrPath: join(work, `${tag}.stderr`),
          onSpawn: (pid) => (sampler = sampleMemory(pid)),
        });
        const memory = sampler?.stop() ?? { peakRssKiB: 0, hwmKiB: 0, samples: 0 };
        console.log(`${(run.wallMs / 1000).toFixed(1)} s`);
        const notes: string[] = [];
        const summary = run.stderr.split('\n').find((l) => l.startsWith('docmill: '));
        if (summary) notes.push(`docmill said: ${summary.trim()}`);
        if (run.timedOut) notes.push('TIMED OUT');
        rows.push({
          name,
          command: commandLine({ REDIS_URL: redisUrl }, 'node', args),
          memory,
          wallMs: run.wallMs,
          exit: run.timedOut ? 'timeout' : String(run.code ?? run.signal),
          server: {
            maxInFlight: server.maxInFlight,
            maxLargeInFlight: server.maxLargeInFlight,
            requests: server.requests,
            bytes: server.bytes,
          },
          notes,
        });
      } finally {
        await server.close();
        await deleteQueueKeys(redisUrl, queue).catch(() => 0);
        await rm(docs, { recursive: true, force: true });
        await rm(out, { recursive: true, force: true });
      }
    };

    await docmillRun(`docmill, ${files} × 1 KiB`, 1024);
    await docmillRun(`docmill, ${files} × ${flags['size-mb']} MiB`, sizeBytes);
  } finally {
    await rm(work, { recursive: true, force: true });
  }

  const header = ['process', 'peak VmRSS MB', 'VmHWM MB', 'samples', 'server max in flight', 'max > 1 MiB in flight', 'uploaded MB', 'wall s', 'exit'];
  const mb = (kib: number) => ((kib * 1024) / 1e6).toFixed(1);
  const table = rows.map((r) => [
    r.name,
    mb(r.memory.peakRssKiB),
    mb(r.memory.hwmKiB),
    String(r.memory.samples),
    r.server ? String(r.server.maxInFlight) : '-',
    r.server ? String(r.server.maxLargeInFlight) : '-',
    r.server ? (r.server.bytes / 1e6).toFixed(1) : '-',
    (r.wallMs / 1000).toFixed(2),
    r.exit,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log('');
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of table) console.log(line(r));
  console.log('');
  console.log(`MB = 10^6 bytes; each docmill row also converted ${warmup} warm-up files of 1 KiB. Commands:`);
  for (const r of rows) {
    console.log(`- ${r.name}: ${r.command}`);
    for (const note of r.notes) console.log(`    ${note}`);
  }
  const big = rows[rows.length - 1];
  if (big) {
    const peakMb = (Math.max(big.memory.peakRssKiB, big.memory.hwmKiB) * 1024) / 1e6;
    const allInFlight = (big.server?.maxLargeInFlight ?? 0) >= Math.min(files, concurrency);
    console.log('');
    console.log(
      `Target (issue 3): worker peak RSS ≤ ${targetMb} MB with ${files} × ${flags['size-mb']} MiB in flight: ` +
        `${peakMb.toFixed(1)} MB → ${peakMb <= targetMb ? 'met' : 'MISSED'}` +
        (allInFlight
          ? ` (${big.server?.maxLargeInFlight ?? 0} large uploads in flight at once)`
          : ` (but only ${big.server?.maxLargeInFlight ?? 0} large uploads were in flight at once)`),
    );
  }
}

await main();
