/**
 * Chunks of a PDF parsed in page ranges: `run` with `splitPages` cuts a 30-page PDF into ranges, merges their results
 * as if the PDF had been parsed whole, and the chunks written from that merge are the chunks of the whole parse
 * (same text, offsets, pages, blocks and ids), with a phrase of page 17 in a chunk on page 17.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../src/app/run.js';
import { checkOptions } from '../../src/backend/upload-checks.js';
import { chunk, type Chunk } from '../../src/chunk/chunk.js';
import { LocalParseEngine } from '../../src/engine/local-engine.js';
import { deleteQueueKeys, SHARED_REDIS_URL, uniqueQueueName } from '../helpers/docmill-cli.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

const PAGES = 30;

async function book(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= PAGES; n++) {
    const page = pdf.addPage([612, 792]);
    page.drawText(`Chapter ${n}`, { x: 72, y: 720, size: 20, font });
    for (let line = 0; line < 10; line++) {
      const text = n === 17 && line === 4 ? 'The lighthouse keeper logged a northern gale.' : `Line ${line} of page ${n} keeps the ledger of the harbour.`;
      page.drawText(text, { x: 72, y: 660 - line * 30, size: 11, font });
    }
  }
  return pdf.save();
}

let home: string;
let queue: string;

beforeEach(async () => {
  home = await makeTempDir();
  queue = uniqueQueueName();
});
afterEach(async () => {
  await deleteQueueKeys(queue);
  await removeTempDir(home);
});

describe('chunks of a PDF parsed in page ranges', () => {
  it('are the chunks of the whole parse, with their pages', async () => {
    const bytes = await book();
    const src = join(home, 'in');
    await mkdir(src, { recursive: true });
    await writeFile(join(src, 'harbour.pdf'), bytes);
    const out = join(home, 'out');
    const summary = await run({ source: src, out, redisUrl: SHARED_REDIS_URL, queue, splitPages: 10, chunks: { maxTokens: 64 } }).done;
    expect(summary.outcome).toBe('completed');
    expect(summary.counts.converted).toBe(1);
    // Three ranges of 10 pages, one request each.
    expect(summary.counts.requests).toBe(3);

    const markdown = await readFile(join(out, 'harbour.pdf.md'), 'utf8');
    const written = (await readFile(join(out, 'harbour.pdf.chunks.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Chunk);
    for (const c of written) expect(markdown.slice(c.charStart, c.charEnd)).toBe(c.text.slice(c.headerChars));
    expect(written.find((c) => c.text.includes('northern gale'))).toMatchObject({ pageStart: 17, pageEnd: 17 });
    expect(written.at(-1)!.pageEnd).toBe(PAGES);

    const engine = new LocalParseEngine({ size: 1 });
    try {
      const whole = await engine.parseBytes(bytes, 'harbour.pdf', checkOptions({ parsers: [{ type: 'pdf', pages: true, blocks: true }] }));
      expect(whole.markdown).toBe(markdown);
      const source = { path: 'harbour.pdf', sha256: createHash('sha256').update(bytes).digest('hex') };
      expect(written).toEqual(JSON.parse(JSON.stringify(chunk(whole, { maxTokens: 64, source }))));
    } finally {
      await engine.close();
    }
  }, 300_000);
});
