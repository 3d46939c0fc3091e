/**
 * A table another reader found that repeats the page's words (a caption over a small ruled table put into each of
 * its header cells) is no table: the ruled grid reads it. The PDF is Word tables printed by LibreOffice.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { convertDocx } from '../../../src/engine/docx/convert-docx.js';
import { input, markdownOf } from '../html/helpers.js';
import { convertBytes, mainMarkdown } from './helpers.js';

const PRINTED = new URL('../../fixtures/printed/', import.meta.url);

function wordCounts(markdown: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of markdown.replace(/<[^>]+>|[|#*-]/g, ' ').split(/\s+/)) if (word) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

describe('Word tables printed to PDF', () => {
  it('hold no word more often than the Word document does, and the spanning cell of the last table reads as one', async () => {
    const pdf = mainMarkdown(await convertBytes(new Uint8Array(readFileSync(new URL('word_tables.pdf', PRINTED)))));
    const docx = markdownOf(await convertDocx(input('docx/word_tables.docx')));
    const source = wordCounts(docx);
    const repeated = [...wordCounts(pdf)].filter(([word, count]) => count > (source.get(word) ?? 0)).map(([word]) => word);
    expect(repeated).toEqual([]);
    const caption = 'A non-uniform table with a vertical span over a row starting late';
    expect(pdf.split(caption)).toHaveLength(2);
    expect(pdf.slice(pdf.indexOf(caption))).toMatch(/<th>Header 0\.0<\/th><th>Header 0\.1<\/th><th rowspan="2">Merged Cell 0\.2 1\.2<\/th>/);
  });
});
