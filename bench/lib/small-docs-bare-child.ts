/**
 * The bare loop bench/small-docs.ts compares `docmill run` with: the same built engine (`LocalParseEngine`, its
 * default threads), `p-limit` at the same concurrency, and per file only read, parse, write the Markdown beside the
 * source's relative path. No queue, no store, no fsync. Transpiled for plain `node` (bench/lib/plain-node.ts) so it
 * starts as `bin/docmill.js` does, without a loader.
 *
 *   node small-docs-bare-child.js <dist dir> <source dir> <out dir> <concurrency>
 *
 * Prints one JSON line: files, converted, failed, wallMs (whole loop, engine start and close included).
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import pLimit from 'p-limit';

interface Engine {
  parseBytes(bytes: Uint8Array, fileName: string, options: unknown): Promise<{ markdown?: string | undefined }>;
  close(): Promise<void>;
}

const [dist, source, out, concurrencyText] = process.argv.slice(2);
if (!dist || !source || !out || !concurrencyText) throw new Error('usage: small-docs-bare-child.js <dist> <source> <out> <concurrency>');
const started = performance.now();
const { LocalParseEngine } = (await import(pathToFileURL(join(dist, 'src/engine/local-engine.js')).href)) as { LocalParseEngine: new () => Engine };
const { validateParseOptions } = (await import(pathToFileURL(join(dist, 'src/contract/validation.js')).href)) as {
  validateParseOptions: (input: unknown) => { ok: true; options: unknown } | { ok: false };
};
const validation = validateParseOptions({});
if (!validation.ok) throw new Error('validateParseOptions({}) failed');
const { options } = validation;

const entries = await readdir(source, { recursive: true, withFileTypes: true });
const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
const engine = new LocalParseEngine();
const limit = pLimit(Number(concurrencyText));
const folders = new Map<string, Promise<unknown>>();
let converted = 0;
let failed = 0;
await Promise.all(
  files.map((path) =>
    limit(async () => {
      const rel = relative(source, path);
      try {
        const bytes = new Uint8Array(await readFile(path));
        const data = await engine.parseBytes(bytes, rel.split('/').pop() ?? rel, options);
        const target = join(out, `${rel}.md`);
        const folder = dirname(target);
        if (!folders.has(folder)) folders.set(folder, mkdir(folder, { recursive: true }));
        await folders.get(folder);
        await writeFile(target, data.markdown ?? '');
        converted++;
      } catch {
        failed++;
      }
    }),
  ),
);
await engine.close();
process.stdout.write(`${JSON.stringify({ files: files.length, converted, failed, wallMs: performance.now() - started })}\n`);
