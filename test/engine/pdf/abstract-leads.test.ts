/**
 * Papers whose abstract is led by its label in bold on the paragraph's first line, the rest of the line in the
 * regular type (one item to PDFium, named after the bold font): `Abstract — We study …`, `Abstract—Recordings …`
 * with the label run into the text's first word, and `Abstract. We ask …` in a paper whose sections' heads are
 * run into their paragraphs too.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { convertBytes } from './helpers.js';

async function papers() {
  const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/abstract-leads.pdf', import.meta.url)));
  return convertBytes(bytes, { mode: 'fast' });
}

/** Each page's blocks as `type: markdown`, headings' levels left out. */
async function pages() {
  const doc = await papers();
  return doc.pages.map((page) => page.blocks.filter((block) => !block.furniture).map((block) => `${block.type}: ${block.markdown.replace(/^#+ /u, '')}`));
}

describe('an abstract led by its label in bold', () => {
  it('heads the abstract where the sections have heads of their own, the paragraph whole after it', async () => {
    const [first, second] = await pages();
    expect(first).toContain('section_header: Abstract');
    expect(first![first!.indexOf('section_header: Abstract') + 1]).toBe(
      'text: We study how attention that looks at only a few positions can be used to read long documents. Our method chooses the positions from the structure of the document, its sections and paragraphs, and needs no extra training. On three benchmarks of long documents it matches full attention while using a quarter of the memory.',
    );
    expect(second).toContain('section_header: Abstract');
    expect(second![second!.indexOf('section_header: Abstract') + 1]).toBe(
      'text: Recordings made in a forest hold the songs of many birds at once. We train a small network to count the birds of each species in a recording and compare its counts with those of trained observers at twelve sites over one summer.',
    );
  });

  it('reads each label once: a heading where the sections have heads of their own, in its paragraph where they are run in', async () => {
    const [first, second, third] = await pages();
    const labels = (page: readonly string[] | undefined) => (page ?? []).filter((entry) => /Abstract/u.test(entry));
    expect(labels(first)).toEqual(['section_header: Abstract']);
    expect(labels(second)).toEqual(['section_header: Abstract']);
    expect(labels(third)).toEqual([
      'text: Abstract. We ask how people read maps on phones, where only a small part of the map fits on the screen. Twenty people found places on maps at three zoom levels while we recorded where they looked and how long they took.',
    ]);
    expect(third!.filter((entry) => entry.startsWith('section_header'))).toEqual(['section_header: Reading Maps on Small Screens']);
  });
});
