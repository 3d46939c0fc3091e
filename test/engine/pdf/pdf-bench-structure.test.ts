/**
 * Headings, captions, furniture and reading order on real pages of opendataloader-bench
 * (test/fixtures/pdf-bench/README.md): what a user reads in the Markdown and sees in the blocks.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DocumentModel } from '../../../src/engine/model.js';
import { readNativePages } from '../../../src/engine/pdf/liteparse/read-pages.js';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';

const FIXTURES = new URL('../../fixtures/pdf-bench/', import.meta.url);

function bytesOf(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(name, FIXTURES)));
}

function page(id: string): Promise<DocumentModel> {
  return convertBytes(bytesOf(`structure-${id}.pdf`), { mode: 'fast' });
}

const headingsOf = (model: DocumentModel) =>
  allBlocks(model)
    .filter((block) => block.type === 'title' || block.type === 'section_header')
    .map((block) => block.markdown);

/** Whitespace collapsed: the text as read, whatever the line breaks. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('PDF structure on benchmark pages', () => {
  it('keeps a title set on two centred lines as one heading, and the page number out of the text', async () => {
    const model = await page('01030000000019');
    expect(headingsOf(model)).toEqual(["# Author's Note to the 2021 Edition"]);
    expect(allBlocks(model).find((block) => block.markdown === 'ix')?.type).toBe('page_number');
    expect(mainMarkdown(model)).not.toMatch(/\bix$/);
  });

  it('reads two columns under full-width charts column by column, with captions that are not headings', async () => {
    const model = await page('01030000000038');
    const text = flat(mainMarkdown(model));
    expect(headingsOf(model)).toContain('### 6.2. Expectations for Re-Hiring Employees');
    expect(text).toContain(
      'In July 2020, 81% of the MSMEs that had laid off employees expected to re-hire all of them when the situation improved.',
    );
    expect(text.indexOf('### 6.2. Expectations')).toBeLessThan(text.indexOf('they had no plans to re-hire and another 36% said'));
    expect(headingsOf(model).some((heading) => /Figure/.test(heading))).toBe(false);
  });

  it("reads a bar chart's labels as lines beside their caption, keeps the footnote and drops the running footer", async () => {
    const model = await page('01030000000077');
    const blocks = allBlocks(model);
    expect(blocks.some((block) => block.type === 'table')).toBe(false);
    expect(blocks.find((block) => block.markdown.startsWith('Figure 1.9b.'))?.type).toBe('caption');
    const markdown = mainMarkdown(model);
    expect(markdown).toMatch(/^400 374 331 335 *$/m);
    expect(markdown.indexOf('Figure 1.9b.')).toBeLessThan(markdown.indexOf('400 374'));
    expect(markdown.indexOf('400 374')).toBeLessThan(markdown.indexOf('Source: Philippine Statistics Authority'));
    expect(flat(markdown)).toContain('9 Keeping in mind that for 2020 the figures are only up to October of the year.');
    expect(blocks.find((block) => block.markdown === 'ASEAN Migration Outlook 21')?.type).toBe('page_footer');
    expect(markdown).not.toContain('ASEAN Migration Outlook');
  });

  it('reads a table of contents one entry a line, not as a grid', async () => {
    const model = await page('01030000000155');
    const markdown = mainMarkdown(model);
    expect(allBlocks(model).some((block) => block.type === 'table')).toBe(false);
    expect(headingsOf(model)).toEqual(['# Contents']);
    expect(markdown).toMatch(/^2\\\. Introduction to Researching Wicked Problems 3 *$/m);
    expect(markdown).toMatch(/^Instructor Resources 97$/m);
  });

  it('reads justified prose as prose, not as tables, and before the narrow sidebar beside it', async () => {
    const model = await page('01030000000157');
    expect(allBlocks(model).some((block) => block.type === 'table')).toBe(false);
    const text = flat(mainMarkdown(model));
    expect(text).toContain('You must fact-check this claim. Remember from the chapter, Our Mental Shortcuts, that we more readily');
    const sidebar = "In these chapters we're focusing on researching a wicked problem, but the SIFT method is a great thing";
    expect(text).toContain(sidebar);
    expect(text).toContain('In addition, if you get lost while working on the other moves, or hit dead ends');
    expect(text.indexOf('In addition, if you get lost')).toBeLessThan(text.indexOf(sidebar));
    expect(text).toContain('Check your emotions. If a claim causes strong emotion');
  });

  it("keeps a small section label above a slide's title out of the headings", async () => {
    const model = await page('01030000000182');
    expect(headingsOf(model)).toEqual([
      '# Upstage offers 3 AI packs that process unstructured information and data, making a tangible impact on your business',
    ]);
    expect(mainMarkdown(model).startsWith('AI Pack')).toBe(true);
  });

  it('a bold run-in lead LiteParse joins to the regular words after it does not make its line a heading', async () => {
    const model = await page('01030000000036');
    expect(headingsOf(model)).toEqual(['# 2. General Profile of MSMEs']);
    expect(mainMarkdown(model)).toMatch(/^Demographics of respondents\. The overall gender ratio/m);
  });

  it('pages whose LiteParse items leave out only a few of a chart\'s label digits stay with LiteParse', async () => {
    for (const name of ['structure-01030000000036.pdf', 'tables-01030000000078.pdf', 'structure-01030000000038.pdf']) {
      const reading = await readNativePages(bytesOf(name), undefined, 'fast');
      expect([name, [...(reading?.pages.keys() ?? [])]]).toEqual([name, [1]]);
    }
  });

  it('a page whose text PDFium boxes in its font\'s bounding box is read by pdfjs, every word of it', async () => {
    const bytes = bytesOf('structure-01030000000122.pdf');
    // LiteParse's lines, built from boxes five lines high, lose half the words of this page.
    expect((await readNativePages(bytes, undefined, 'fast'))?.pages.has(1)).toBe(false);
    const text = flat(mainMarkdown(await convertBytes(bytes, { mode: 'fast' })));
    expect(text).toContain('3. Mix reagents by pipetting gently up and down.');
    expect(text).toContain('4. Incubate all of the reaction tubes for 1 hour at 37');
    expect(text).toContain('Use a fresh pipet tip for each reaction tube and write down the order in which the samples are loaded.');
    expect(text).toContain('If an air bubble forms a cap over the well, the sample will flow into the buffer around the edges of the well.');
  });

  it('so is the page as Ghostscript writes it, where only the few lines holding a tall glyph have such boxes', async () => {
    const bytes = bytesOf('gs-structure-01030000000122.pdf');
    // LiteParse loses the list item set between two such lines (`Restriction digests from Part II, on ice`).
    expect((await readNativePages(bytes, undefined, 'fast'))?.pages.has(1)).toBe(false);
    const markdown = mainMarkdown(await convertBytes(bytes, { mode: 'fast' }));
    expect(markdown).toMatch(/^- Restriction digests from Part II, on ice$/m);
    expect(markdown).toMatch(/^- Gel electrophoresis chamber with agarose gel in gel tray, power supply$/m);
    expect(markdown).toMatch(/^#+ Load the Gel$/m);
    expect(markdown).toMatch(/^1\. Use a micropipette to add 2 \S+ of 10× loading dye to a reaction tube\./m);
  });

  it('headings and a running foot set in tracked capitals read as whole words', async () => {
    const model = await page('01030000000151');
    expect(headingsOf(model)).toEqual(['## CHAPTER 1.', '## CALIFORNIA', '### COURSE MARKING DRIVERS', '### IMPLEMENTATION']);
    // The foot's letters are set apart and its item's codes stop short: PDFium's spaces between them go.
    expect(allBlocks(model).map((block) => block.markdown)).toContain('PRICE TRANSPARENCY 1');
  });

  it("a vector chart's labels set above the body are text, not headings; a heading wrapped loosely over two lines is one", async () => {
    const model = await page('01030000000199');
    expect(headingsOf(model)).toEqual([
      '# Base Model Performance Evaluation of Upstage OCR Pack',
      '## Upstage universal OCR model E2E performance evaluation1',
      '## Upstage universal OCR model performance details: Document criteria',
    ]);
    const text = flat(mainMarkdown(model));
    // The category labels stay in the text, where the charts stand.
    for (const label of ['OCR-Recall3', 'OCR-Precision4', 'Parsing-F1', 'Scene (Photographed document image)']) expect(text).toContain(label);
    // The categories under the bars line up like cells; they are labels, read as lines.
    expect(mainMarkdown(model)).not.toContain('| Company |');
    expect(text).toContain('Company Company Company Company A2 B2 A2 B2');
  });

  it("reads the footnotes at the foot of each column after both columns: the sentence running on is not cut", async () => {
    const text = flat(mainMarkdown(await page('01030000000008')));
    // The first column ends mid-sentence and the second goes on with it (the figure between them keeps its place).
    const end = text.indexOf('brought here by the Arabians and bought by the');
    const goesOn = text.indexOf('Turks … [and] by the Merchants of Mogul');
    expect(end).toBeGreaterThan(0);
    expect(goesOn).toBeGreaterThan(end);
    expect(text.slice(end, goesOn)).not.toMatch(/\b2[5-9] [A-Z]/);
    // Notes 25–29 (first column) and 30–33 (second) follow the second column's text, in their order.
    const notes = ['25 Wiliam Beckford', '26 For the association', '29 Pope,', '30 Beawes,', '33 M.M., Pharmacopoia'].map((note) => text.indexOf(note));
    expect(notes[0]).toBeGreaterThan(text.indexOf('which were all used for their therapeutic properties'));
    expect(notes).toEqual([...notes].sort((a, b) => a - b));
  });

  it("reads a paragraph beside a side caption whole, then the caption, though no column runs down the whole page", async () => {
    const text = flat(mainMarkdown(await page('01030000000140')));
    // The paragraph's lines and the caption's stand on nearly the same baselines: read line by line, they mix.
    expect(text).toContain('In a recent global analysis of the status of populations that form spawning aggregations, 45% were unknown');
    expect(text).toContain('Figure 13.5: Current known status reflecting changes of exploited grouper aggregations globally, as noted by fisher interviews');
    const order = ['There is no question that fishing', 'and 5% were increasing.', 'Figure 13.5:', 'Of the 167 species', 'mislabeled or substituted.', 'Figure 13.6:', 'To protect grouper'].map((part) => text.indexOf(part));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it("keeps each display formula set in TeX's fonts on one line, its minus signs in place", async () => {
    const markdown = mainMarkdown(await page('01030000000144'));
    // A symbol font's box reaches 1 em below the line: read by its box, the minus and what follows fell a line lower.
    expect(markdown).toContain('2ᵖ(M - Q(h)) - (M - Q(2h)) = 2ᵖ(cphᵖ) - cp(2h)ᵖ + O(hp+1),');
    expect(markdown).toContain("f'(x) - Qf(h) = c1h + O(h²), (3.17)");
    expect(markdown).not.toMatch(/^- (?:Q|0\.0348)/m);
  });

  it('a display formula over several lines whose pieces line up like cells is no table', async () => {
    const markdown = mainMarkdown(await page('01030000000145'));
    expect(markdown).not.toContain('| --- |');
    expect(flat(markdown)).toContain('then the friction coefficient w satisfies the equation');
  });

  it("reads a figure's label set beside its caption's two lines before the caption, not between them", async () => {
    const text = flat(mainMarkdown(await page('01030000000072')));
    expect(text).toContain("Diagram 5 Distribution of Komnas HAM's YouTube Content (2019-2020)");
  });
});
