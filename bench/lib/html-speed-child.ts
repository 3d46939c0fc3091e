/**
 * One copy of docmill's HTML engine timed alone in its own process, for bench/html-main-content.ts's speed rounds:
 * two copies in one process share linkedom and whatever a copy changes in it process-wide (listenerless-nodes.ts
 * drops its event-listener tables), so the older copy would be timed with the newer one's changes.
 *
 *   node --import tsx bench/lib/html-speed-child.ts <docmill checkout or src copy> <pages.json>
 *
 * pages.json: an array of decoded HTML strings. Prints the seconds of one pass over them after an untimed pass.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [root, pagesFile] = process.argv.slice(2);
if (root === undefined || pagesFile === undefined) throw new Error('usage: html-speed-child.ts <docmill dir> <pages.json>');
const { htmlToModel } = (await import(pathToFileURL(join(resolve(root), 'src/engine/html/convert-html.ts')).href)) as { htmlToModel: (html: string) => unknown };
const pages = JSON.parse(await readFile(pagesFile, 'utf8')) as string[];
console.warn = console.error = () => {};
const pass = () => {
  for (const html of pages) {
    try {
      htmlToModel(html);
    } catch {
      /* scored by the parent */
    }
  }
};
pass();
const started = performance.now();
pass();
process.stdout.write(`${((performance.now() - started) / 1000).toFixed(3)}\n`);
