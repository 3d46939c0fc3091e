/** The benchmarks' documents: small generated HTML files, and the count of the Markdown outputs made of them. */
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** `count` HTML files of 200 bytes, 100 to a folder, named f00000.html… (names unique across folders). */
export async function makeHtmlFiles(dir: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const group = join(dir, `g${String(Math.floor(i / 100)).padStart(3, '0')}`);
    if (i % 100 === 0) await mkdir(group, { recursive: true });
    const head = `<!doctype html><html><head><title>doc ${i}</title></head><body><h1>Document ${i}</h1><p>`;
    const tail = '</p></body></html>\n';
    const body = head + 'x'.repeat(Math.max(0, 200 - head.length - tail.length)) + tail;
    await writeFile(join(group, `f${String(i).padStart(5, '0')}.html`), body);
  }
}

export async function listHtmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.html'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Markdown outputs docmill wrote below `out` (its own `_docmill` folder aside). */
export async function countOutputs(out: string): Promise<number> {
  if (!existsSync(out)) return 0;
  const entries = await readdir(out, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.html.md') && !e.parentPath.includes('_docmill')).length;
}
