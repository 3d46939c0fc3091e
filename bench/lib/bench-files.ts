/**
 * The benchmarks' documents: small generated HTML files, copies of a corpus with unique bytes, and the count of the
 * Markdown outputs made of them.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, extname, join, relative } from 'node:path';

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

const TEXT_FORMATS = new Set(['.html', '.htm', '.xhtml', '.csv', '.rtf', '.txt', '.md']);

/**
 * The documents of `corpus` (its `*.expected.md` and `SOURCES.md` aside) copied round-robin to `count` files under
 * `dir`, one folder per round (c000, c001, …), each copy after the first with bytes of its own appended (a comment in
 * text formats, trailing bytes in the others) so that the content index cannot skip it as already converted.
 */
export async function makeMixedCopies(corpus: string, dir: string, count: number): Promise<void> {
  const entries = await readdir(corpus, { recursive: true, withFileTypes: true });
  const originals = entries
    .filter((e) => e.isFile() && !e.name.endsWith('.expected.md') && e.name !== 'SOURCES.md')
    .map((e) => join(e.parentPath, e.name))
    .sort();
  if (originals.length === 0) throw new Error(`no documents in ${corpus}`);
  for (let i = 0; i < count; i++) {
    const original = originals[i % originals.length] as string;
    const copy = Math.floor(i / originals.length);
    const target = join(dir, `c${String(copy).padStart(3, '0')}`, relative(corpus, original));
    await mkdir(dirname(target), { recursive: true });
    const extension = extname(original).toLowerCase();
    if (copy === 0) {
      await copyFile(original, target);
      continue;
    }
    const bytes = await readFile(original);
    const mark = extension === '.csv' ? `\ncopy ${copy}\n` : TEXT_FORMATS.has(extension) ? `\n<!-- copy ${copy} -->\n` : `\n% copy ${copy}\n`;
    // RTF: a trailing newline count varies the bytes without changing the text.
    const tail = extension === '.rtf' ? '\n'.repeat(copy) : mark;
    await writeFile(target, Buffer.concat([bytes, Buffer.from(tail)]));
  }
}

/** Markdown outputs docmill wrote below `out` from sources of any format (its own `_docmill` folder aside). */
export async function countMarkdownOutputs(out: string): Promise<number> {
  if (!existsSync(out)) return 0;
  const entries = await readdir(out, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.md') && !e.parentPath.includes('_docmill')).length;
}
