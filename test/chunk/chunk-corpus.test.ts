/**
 * Chunks of real documents converted by the local engine (test/fixtures/corpus), one per format: offsets slice the
 * Markdown exactly, budgets hold, every word of the Markdown outside page markers and furniture is in a chunk, and
 * ids are stable. A three-page PDF built here shows provenance: a phrase on page 2 is in a chunk on page 2, whether
 * pages come from the blocks or from page markers.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOptions } from '../../src/backend/upload-checks.js';
import { chunk, type Chunk } from '../../src/chunk/chunk.js';
import { pageMarkersOf } from '../../src/chunk/structure.js';
import { countTokens } from '../../src/chunk/tokens.js';
import type { ParseData } from '../../src/contract/response.js';
import { LocalParseEngine } from '../../src/engine/local-engine.js';
import { corpusFile } from '../helpers/corpus.js';

const FIXTURES = [
  'pdf/multi-column-2p.pdf',
  'pdf/code_and_formula.pdf',
  'docx/word_tables.docx',
  'docx/docx_page_header_footer_first_page.docx',
  'pptx/powerpoint_sample.pptx',
  'xlsx/xlsx_01.xlsx',
  'html/wiki_duck.html',
  'csv/csv-comma.csv',
  'odt/text_document_03.odt',
  'epub/epub_purvis_poetry.epub',
  'rtf/eng_spa_mult.rtf',
  'doc/legacy_sample.doc',
];

const layout = checkOptions({ parsers: [{ type: 'pdf', pages: true, blocks: true }] });
const layoutAndMarkers = checkOptions({ parsers: [{ type: 'pdf', pages: true, blocks: true, pageMarkers: true }] });

let engine: LocalParseEngine;
const parsed = new Map<string, ParseData>();

beforeAll(async () => {
  engine = new LocalParseEngine({ size: 1 });
  for (const fixture of FIXTURES) {
    const bytes = new Uint8Array(readFileSync(corpusFile(fixture)));
    parsed.set(fixture, await engine.parseBytes(bytes, basename(fixture), layout));
    parsed.set(`${fixture} (markers)`, await engine.parseBytes(bytes, basename(fixture), layoutAndMarkers));
  }
}, 240_000);
afterAll(async () => {
  await engine.close();
});

/** Characters of the Markdown outside page markers and furniture spans that are not whitespace. */
function contentOffsets(data: ParseData): number[] {
  const markdown = data.markdown ?? '';
  const excluded = new Uint8Array(markdown.length);
  for (const marker of pageMarkersOf(markdown)) excluded.fill(1, marker.start, marker.end);
  for (const page of data.blocks ?? []) {
    for (const item of page.items) {
      if (['page_header', 'page_footer', 'page_number'].includes(item.type) && item.markdownSpan) excluded.fill(1, ...item.markdownSpan);
    }
  }
  const offsets: number[] = [];
  for (let i = 0; i < markdown.length; i++) if (!excluded[i] && /\S/.test(markdown[i]!)) offsets.push(i);
  return offsets;
}

function expectExactAndCovering(data: ParseData, chunks: Chunk[], maxTokens: number): void {
  const markdown = data.markdown ?? '';
  const covered = new Uint8Array(markdown.length);
  for (const c of chunks) {
    expect(c.text.slice(c.headerChars)).toBe(markdown.slice(c.charStart, c.charEnd));
    expect(c.tokens).toBeLessThanOrEqual(maxTokens);
    expect(c.text).not.toContain('<!-- page');
    covered.fill(1, c.charStart, c.charEnd);
  }
  const missed = contentOffsets(data).filter((offset) => !covered[offset]);
  expect(missed.map((offset) => markdown.slice(offset, offset + 20))).toEqual([]);
}

describe('chunks of the corpus converted by the local engine', () => {
  for (const fixture of FIXTURES) {
    it(`${fixture}: exact offsets, budgets held, every word in a chunk, with and without page markers`, () => {
      for (const key of [fixture, `${fixture} (markers)`]) {
        const data = parsed.get(key)!;
        expect(data.markdown?.length ?? 0).toBeGreaterThan(0);
        for (const [maxTokens, overlapTokens] of [[512, 0], [64, 0], [96, 24]] as const) {
          const chunks = chunk(data, { maxTokens, overlapTokens });
          expect(chunks.length).toBeGreaterThan(0);
          expectExactAndCovering(data, chunks, maxTokens);
          for (const c of chunks) expect(c.tokens).toBe(countTokens(c.text));
        }
      }
    });
  }

  it('puts no chunk across two sections of the Wikipedia page, and names each section in headingPath', () => {
    const data = parsed.get('html/wiki_duck.html')!;
    const chunks = chunk(data, { maxTokens: 256 });
    for (const c of chunks) {
      const own = data.markdown!.slice(c.charStart, c.charEnd);
      // A heading may only open a chunk's text (empty parent sections stay with their first child).
      const headings = [...own.matchAll(/^#{1,6} .*$/gm)];
      for (const heading of headings) {
        const before = own.slice(0, heading.index);
        expect(before.replace(/^#{1,6} .*$/gm, '').trim()).toBe('');
      }
    }
    const etymology = chunks.find((c) => c.text.startsWith('## Etymology'))!;
    expect(etymology.headingPath).toEqual(['Duck', 'Etymology']);
    expect(chunks.find((c) => c.text.startsWith('## Behaviour'))!.headingPath).toEqual(['Duck', 'Behaviour', 'Feeding']);
  });

  it('gives the same ids on a rerun of the same bytes and options', async () => {
    const bytes = new Uint8Array(readFileSync(corpusFile('pptx/powerpoint_sample.pptx')));
    const again = await engine.parseBytes(bytes, 'powerpoint_sample.pptx', layout);
    const source = { path: 'slides/powerpoint_sample.pptx', sha256: 'b'.repeat(64) };
    const ids = (data: ParseData) => chunk(data, { maxTokens: 64, source }).map((c) => c.id);
    expect(ids(again)).toEqual(ids(parsed.get('pptx/powerpoint_sample.pptx')!));
  });

  it('lists the blocks of a PDF chunk with their pages and boxes', () => {
    const chunks = chunk(parsed.get('pdf/code_and_formula.pdf')!, { maxTokens: 512 });
    // LiteParse sets the listing as written ("function add(a, b)"); pdfjs's runs spread it ("function  add (a , b )").
    const code = chunks.find((c) => /function +add ?\(/.test(c.text))!;
    expect(code.blocks.some((block) => block.id === 'p1.b4' && block.page === 1 && block.bbox?.length === 4)).toBe(true);
    const formula = chunks.find((c) => c.text.includes('a² + 8 = 12'))!;
    expect(formula).toMatchObject({ pageStart: 2, pageEnd: 2, headingPath: ['Formula'] });
    expect(formula.blocks.find((block) => block.type === 'formula')).toMatchObject({ id: 'p2.b3', page: 2 });
    // The page numbers at the foot of each page are furniture: in no chunk.
    expect(chunks.flatMap((c) => c.blocks).some((block) => block.type === 'page_number')).toBe(false);
  });
});

describe('provenance on a three-page PDF', () => {
  async function threePages(): Promise<Uint8Array> {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (let n = 1; n <= 3; n++) {
      const page = pdf.addPage([612, 792]);
      for (let line = 0; line < 12; line++) {
        const text = n === 2 && line === 5 ? 'The turbine inspection found a cracked blade.' : `Page ${n} line ${line} describes routine maintenance work.`;
        page.drawText(text, { x: 72, y: 700 - line * 40, size: 11, font });
      }
    }
    return pdf.save();
  }

  it('puts a phrase of page 2 in a chunk with pageStart 2, from blocks and from page markers alike', async () => {
    const bytes = await threePages();
    const phrase = 'cracked blade';
    for (const options of [layout, checkOptions({ parsers: [{ type: 'pdf', pageMarkers: true }] })]) {
      const data = await engine.parseBytes(bytes, 'three.pdf', options);
      expect(data.metadata?.numPages).toBe(3);
      for (const maxTokens of [512, 40]) {
        const chunks = chunk(data, { maxTokens });
        const holding = chunks.filter((c) => c.text.includes(phrase));
        expect(holding.length).toBe(1);
        expect(holding[0]!.pageStart).toBeLessThanOrEqual(2);
        expect(holding[0]!.pageEnd).toBeGreaterThanOrEqual(2);
        if (maxTokens === 40) expect(holding[0]).toMatchObject({ pageStart: 2, pageEnd: 2 });
        if (data.blocks) expect(holding[0]!.blocks.some((block) => block.page === 2 && block.bbox !== null)).toBe(true);
        expectExactAndCovering(data, chunks, maxTokens);
      }
    }
  });
});
