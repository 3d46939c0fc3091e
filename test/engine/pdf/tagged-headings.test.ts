/**
 * A tagged PDF's own outline: the structure tree's title and headings decide the heading levels, where sizes and
 * weights cannot (a heading set like the body, a numbered heading under a list, a bold line that is body text).
 * Generated PDFs (tagged-pdfs.ts), local engine; and the structure tree's reading on its own.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOptions } from '../../../src/backend/upload-checks.js';
import { LocalParseEngine } from '../../../src/engine/local-engine.js';
import { BODY_ROLE, structureRoles, TITLE_ROLE, type StructureElement } from '../../../src/engine/pdf/liteparse/structure-roles.js';
import { hostileTreePdf, taggedPdf, type TaggedLine } from './tagged-pdfs.js';

const body = (n: number, element: string, tag = 'P'): TaggedLine => ({
  tag,
  text: `Line ${n} of the guide, set in the same type as the rest of its paragraph.`,
  size: 11,
  element,
});

/** Two pages; the last paragraph of page 1 runs over the break, and page 2 holds a heading set like the body. */
const GUIDE: TaggedLine[][] = [
  [
    { tag: 'H1', text: 'Field Guide to Electric Tools', size: 20, bold: true, element: 'title' },
    body(1, 'intro'),
    body(2, 'intro'),
    { tag: 'H2', text: 'Tools You Need', size: 15, bold: true, element: 'tools' },
    { tag: 'LI', text: '• Plan to spend: $15-$70', size: 11, element: 'item' },
    { tag: 'H3', text: '2. Cutting Tools', size: 11, element: 'cutting' },
    body(3, 'cutting-text'),
    body(4, 'cutting-text'),
    { tag: 'P', text: 'Note well', size: 11, bold: true, element: 'note' },
    body(5, 'long'),
    body(6, 'long'),
    body(7, 'long'),
  ],
  [
    body(8, 'long'),
    ...Array.from({ length: 9 }, (_, i) => body(9 + i, 'checks')),
    // Its marked content's number is also one that the paragraph continued from page 1 names there.
    { tag: 'H3', text: 'Testing the Circuit', size: 11, element: 'testing' },
    body(30, 'testing-text'),
  ],
];

describe('a tagged PDF', () => {
  let engine: LocalParseEngine;
  beforeAll(() => {
    engine = new LocalParseEngine({ size: 1 });
  });
  afterAll(async () => {
    await engine.close();
  });

  const headingsOf = (markdown = '') => markdown.split('\n').filter((line) => /^#{1,6} /.test(line));

  it('takes its headings and their levels from its structure tree', async () => {
    const data = await engine.parseBytes(await taggedPdf(GUIDE), 'guide.pdf', checkOptions({ parsers: [{ type: 'pdf', blocks: true }] }));
    expect(headingsOf(data.markdown)).toEqual(['# Field Guide to Electric Tools', '## Tools You Need', '### 2. Cutting Tools', '### Testing the Circuit']);
    // The bold line tagged as a paragraph stays text; the list item stays a list item.
    expect(data.markdown).toContain('\n\nNote well\n\n');
    expect(data.markdown).toContain('- Plan to spend: $15-$70');
    const items = data.blocks!.flatMap((page) => page.items);
    expect(items.find((item) => item.content === '# Field Guide to Electric Tools')?.type).toBe('title');
    const testing = items.find((item) => item.content === '### Testing the Circuit');
    expect(testing?.type).toBe('section_header');
    expect(testing?.label).toBe('heading-3');
  });

  it('keeps its artifacts (a header of the first page only, page numbers) out of the flow as furniture', async () => {
    const artifacts = [{ top: 'FIRST PAGE HEADER (page 1 only)', bottom: 'Page 1' }, { top: 'Regular header, page 2 onward', bottom: 'Page 2' }];
    const data = await engine.parseBytes(await taggedPdf(GUIDE, artifacts), 'guide.pdf', checkOptions({ parsers: [{ type: 'pdf', blocks: true }] }));
    expect(data.markdown).not.toContain('FIRST PAGE HEADER');
    expect(data.markdown).not.toContain('Regular header');
    expect(data.markdown).not.toContain('Page 1');
    const items = data.blocks!.flatMap((page) => page.items);
    expect(items.find((item) => item.content.startsWith('FIRST PAGE HEADER'))?.type).toBe('page_header');
    expect(items.find((item) => item.content === 'Page 2')?.type).toBe('page_number');
    expect(data.markdown).toContain('### Testing the Circuit');
  });

  it('takes the heading of a tagged page read by pdfjs (right-to-left script) from its tags too', async () => {
    // The corpus's Arabic page: its only heading is tagged H1, set a little bigger than the body.
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/corpus/pdf/right_to_left_01.pdf', import.meta.url)));
    const data = await engine.parseBytes(bytes, 'right_to_left_01.pdf', checkOptions({ parsers: [{ type: 'pdf' }] }));
    expect(data.markdown?.split('\n')[0]).toBe('# تحسين الإنتاجية وحل المشكلات من خلال البرمجة بلغة R و Python');
  });

  it('reads a page whose structure tree holds a cycle, or nests 3,000 deep, with its heading', async () => {
    for (const kind of ['cycle', 'deep'] as const) {
      const data = await engine.parseBytes(await hostileTreePdf(kind), `${kind}.pdf`, checkOptions({ parsers: [{ type: 'pdf' }] }));
      expect(data.markdown, kind).toBe('# A heading in a hostile tree\n\nBody text of the page, set at the body size.');
    }
  });

  it('does not trust tags that cannot be an outline', async () => {
    // A producer that tags every paragraph as a heading: the layout's own reading stands.
    const everyLineAHeading = GUIDE.map((lines) => lines.map((line) => (line.tag === 'H1' ? line : { ...line, tag: 'H1' })));
    const data = await engine.parseBytes(await taggedPdf(everyLineAHeading), 'guide.pdf', checkOptions({ parsers: [{ type: 'pdf' }] }));
    const headings = headingsOf(data.markdown);
    expect(headings[0]).toBe('# Field Guide to Electric Tools');
    expect(headings.some((line) => line.includes('Line 3 of the guide'))).toBe(false);
    expect(data.markdown).toContain('Line 3 of the guide');
  });
});

describe('structure roles', () => {
  const element = (elementType: string, markedContentIds: number[], children: StructureElement[] = []): StructureElement => ({ elementType, markedContentIds, children });

  it('gives a heading element\'s content its level, spans and links within it included, and the rest body', () => {
    const roles = structureRoles([
      element('Document', [], [element('Title', [0]), element('H2', [1], [element('Span', [2]), element('Link', [3])]), element('P', [4]), element('Heading 4', [5])]),
    ]);
    expect([0, 1, 2, 3, 4, 5].map((id) => roles.get(id)?.role)).toEqual([TITLE_ROLE, 2, 2, 2, BODY_ROLE, 4]);
    expect(roles.get(2)?.element).toBe(roles.get(1)?.element);
  });

  it('levels a generic H by the sections around it', () => {
    const roles = structureRoles([element('Sect', [], [element('H', [0]), element('Sect', [], [element('H', [1]), element('P', [2])])])]);
    expect(roles.get(0)?.role).toBe(1);
    expect(roles.get(1)?.role).toBe(2);
    expect(roles.get(2)?.role).toBe(BODY_ROLE);
  });

  it('lets a heading keep a content number that a paragraph continued from another page also names', () => {
    const roles = structureRoles([element('Document', [], [element('P', [9, 10, 0]), element('P', [1, 2]), element('H3', [10])])]);
    expect(roles.get(10)?.role).toBe(3);
    expect(roles.get(0)?.role).toBe(BODY_ROLE);
  });

  it('walks a tree nested deeper than the call stack', () => {
    let deepest = element('H2', [7]);
    for (let i = 0; i < 200_000; i++) deepest = element('Div', [], [deepest]);
    expect(structureRoles([deepest]).get(7)?.role).toBe(2);
  });
});
