import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { validateParseOptions } from '../src/contract/validation.js';
import { parseDocument } from '../src/engine/engine.js';
const file = process.argv[2]!;
const reps = Number(process.argv[3] ?? 5);
const bytes = await readFile(file);
const options = validateParseOptions({}) as never;
const one = () => parseDocument({ bytes, fileName: file.split('/').pop()!, options } as never);
await one();
const t0 = performance.now(); const c0 = process.cpuUsage();
let pages = 0;
for (let i = 0; i < reps; i++) { const r = (await one()) as { metadata?: { numPages?: number } }; pages += Number(r.metadata?.numPages ?? 0); }
const ms = performance.now() - t0; const cpu = process.cpuUsage(c0);
console.log(`${file}: ${pages} pages in ${ms.toFixed(0)} ms = ${(pages / ms * 1000).toFixed(1)} p/s; cpu ${( (cpu.user + cpu.system) / 1000).toFixed(0)} ms`);
