/**
 * A benchmark child: parses the PDFs named on its command line with docmill's engine in this process, one after
 * the other, on command. Protocol (lines on stdin/stdout): it warms up (every file `--warm` times) and prints
 * `ready`; each `go` line makes it parse every file once and print `{"wallMs":…,"cpuMs":…}`; end of stdin ends it.
 * bench/pdf-extraction.ts runs N of these at once as the control for the thread pool: N separate docmill
 * processes share nothing but the machine.
 */
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { validateParseOptions } from '../../src/contract/validation.js';
import { parseDocument } from '../../src/engine/engine.js';

const { values, positionals } = parseArgs({ options: { warm: { type: 'string', default: '3' } }, allowPositionals: true });
const validation = validateParseOptions({});
if (!validation.ok) throw new Error('validateParseOptions({}) failed');
const options = validation.options;
const docs = await Promise.all(
  positionals.map(async (path) => ({ name: path.split('/').pop() ?? path, bytes: new Uint8Array(await readFile(path)) })),
);

async function parseAll(): Promise<void> {
  for (const doc of docs) await parseDocument({ bytes: doc.bytes, fileName: doc.name, options });
}

for (let i = 0; i < Number(values.warm); i++) await parseAll();
process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== 'go') continue;
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  await parseAll();
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(`${JSON.stringify({ wallMs: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
}
