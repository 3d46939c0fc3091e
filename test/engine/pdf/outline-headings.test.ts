/**
 * An untagged PDF's bookmarks: where the outline names the document's headings (as Word, LibreOffice and LaTeX's
 * hyperref write one), its nesting decides their levels, where sizes and weights cannot (headings set like the
 * body, a subsection as big as its section). Generated PDFs (pdf-lib), compressed and not, explicit and named
 * destinations; a LibreOffice print (`test/fixtures/printed/`); both text readers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, StandardFonts, type PDFArray, type PDFRef } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { openPdf } from '../../../src/engine/pdf/convert-pdf.js';
import { pdfjsOutline } from '../../../src/engine/pdf/pdfjs-outline.js';
import { readStatedInfo } from '../../../src/engine/pdf/stated-info.js';
import { readStatedOutline } from '../../../src/engine/pdf/stated-outline.js';
import { titleKey } from '../../../src/engine/pdf/outline-headings.js';
import { convertBytes, convertWithPdfjs, mainMarkdown } from './helpers.js';

interface Line {
  text: string;
  size: number;
  bold?: boolean;
}

interface Bookmark {
  title: string;
  page: number;
  kids?: Bookmark[];
}

const body = (n: number): Line => ({ text: `Line ${n} of the report, set in the same type as the rest of its paragraph.`, size: 11 });

/** Two pages: a title, then sections and their subsections all set alike, in bold, as a bold line of the body. */
const REPORT: Line[][] = [
  [
    { text: 'Annual Report of the Society', size: 20, bold: true },
    body(1),
    body(2),
    { text: 'Membership', size: 11, bold: true },
    body(3),
    body(4),
    { text: 'Note well', size: 11, bold: true },
    body(5),
  ],
  [
    { text: 'Finances', size: 11, bold: true },
    body(6),
    body(7),
    { text: 'Income', size: 11, bold: true },
    body(8),
    body(9),
    { text: 'Spending', size: 11, bold: true },
    body(10),
  ],
];

const OUTLINE: Bookmark[] = [
  { title: 'Membership', page: 1 },
  {
    title: 'Finances',
    page: 2,
    kids: [
      { title: 'Income', page: 2 },
      { title: 'Spending', page: 2 },
    ],
  },
];

/**
 * The pages drawn top down, and the bookmarks as an outline tree. `named`: destinations by name in the catalogue's
 * /Dests dictionary or its /Names tree (as hyperref writes them), else explicit `[page /XYZ …]`; `packed`: objects in object streams.
 */
async function bookmarkedPdf(pages: readonly Line[][], outline: readonly Bookmark[], how: { named?: 'dictionary' | 'tree'; packed?: boolean } = {}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const pageRefs: PDFRef[] = [];
  for (const lines of pages) {
    const page = pdf.addPage([612, 792]);
    pageRefs.push(page.ref);
    let y = 720;
    for (const line of lines) {
      page.drawText(line.text, { x: 72, y, size: line.size, font: line.bold ? bold : regular });
      y -= line.size * 1.4 + (line.bold ? 8 : 0);
    }
  }
  const context = pdf.context;
  const names = context.obj({});
  const tree: (PDFHexString | PDFArray)[] = [];
  const destination = (bookmark: Bookmark, index: string) => {
    const explicit = context.obj([pageRefs[bookmark.page - 1]!, PDFName.of('XYZ'), null, null, null]);
    if (!how.named) return explicit;
    if (how.named === 'tree') tree.push(PDFHexString.fromText(`section.${index}`), explicit);
    else names.set(PDFName.of(`section.${index}`), explicit);
    return PDFHexString.fromText(`section.${index}`);
  };
  const rootRef = context.nextRef();
  const items = (list: readonly Bookmark[], parent: PDFRef, prefix: string): { first: PDFRef; last: PDFRef; count: number } => {
    const refs = list.map(() => context.nextRef());
    let count = list.length;
    list.forEach((bookmark, i) => {
      const item = context.obj({ Title: PDFHexString.fromText(bookmark.title), Parent: parent, Dest: destination(bookmark, `${prefix}${i + 1}`) }) as PDFDict;
      if (i > 0) item.set(PDFName.of('Prev'), refs[i - 1]!);
      if (i < list.length - 1) item.set(PDFName.of('Next'), refs[i + 1]!);
      if (bookmark.kids?.length) {
        const kids = items(bookmark.kids, refs[i]!, `${prefix}${i + 1}.`);
        item.set(PDFName.of('First'), kids.first);
        item.set(PDFName.of('Last'), kids.last);
        item.set(PDFName.of('Count'), PDFNumber.of(kids.count));
        count += kids.count;
      }
      context.assign(refs[i]!, item);
    });
    return { first: refs[0]!, last: refs.at(-1)!, count };
  };
  const top = items(outline, rootRef, '');
  context.assign(rootRef, context.obj({ Type: 'Outlines', First: top.first, Last: top.last, Count: top.count }));
  pdf.catalog.set(PDFName.of('Outlines'), rootRef);
  if (how.named === 'dictionary') pdf.catalog.set(PDFName.of('Dests'), context.register(names));
  if (how.named === 'tree') pdf.catalog.set(PDFName.of('Names'), context.obj({ Dests: context.obj({ Names: tree }) }));
  return pdf.save({ useObjectStreams: how.packed ?? false });
}

const REPORT_HEADINGS = ['# Annual Report of the Society', '## Membership', '## Finances', '### Income', '### Spending'];

const headingsOf = (markdown: string) => markdown.split('\n').filter((line) => /^#{1,6} /.test(line));

describe('an untagged PDF with bookmarks', () => {
  it('takes its headings\' levels from the outline\'s nesting, under the title it does not name', async () => {
    const bytes = await bookmarkedPdf(REPORT, OUTLINE);
    expect(readStatedInfo(bytes)?.outlines).toBe(true);
    const markdown = mainMarkdown(await convertBytes(bytes, { mode: 'fast' }));
    // A bold line set as the headings are, which the outline does not name, is text.
    expect(markdown).toContain('paragraph.\n\nNote well\n\nLine 5');
    expect(headingsOf(markdown)).toEqual(REPORT_HEADINGS);
    // Without the bookmarks, sizes and weights alone cannot tell the subsections from their section.
    const plain = mainMarkdown(await convertBytes(await bookmarkedPdf(REPORT, []), { mode: 'fast' }));
    expect(headingsOf(plain)).not.toContain('### Income');
  });

  it('reads bookmarks compressed into object streams, with named destinations, as hyperref writes them', async () => {
    const bytes = await bookmarkedPdf(REPORT, OUTLINE, { named: 'tree', packed: true });
    const markdown = mainMarkdown(await convertBytes(bytes, { mode: 'fast' }));
    expect(headingsOf(markdown)).toEqual(REPORT_HEADINGS);
  });

  it('reads them the same where the built-in text reader reads the pages', async () => {
    const markdown = mainMarkdown(await convertWithPdfjs(await bookmarkedPdf(REPORT, OUTLINE, { named: 'dictionary' }), { mode: 'fast' }));
    expect(headingsOf(markdown)).toEqual(REPORT_HEADINGS);
  });

  it('leaves the layout\'s headings where the bookmarks are not the document\'s headings', async () => {
    const pageLabels: Bookmark[] = [
      { title: 'Page 1', page: 1 },
      { title: 'Page 2', page: 2 },
      { title: 'Income', page: 2 },
    ];
    const labelled = mainMarkdown(await convertBytes(await bookmarkedPdf(REPORT, pageLabels), { mode: 'fast' }));
    const plain = mainMarkdown(await convertBytes(await bookmarkedPdf(REPORT, []), { mode: 'fast' }));
    expect(labelled).toBe(plain);
  });

  it('names a heading on its bookmark\'s page, not the same words elsewhere', async () => {
    const pages: Line[][] = [
      [body(1), body(2), body(3), { text: 'Summary', size: 11, bold: true }, body(4)],
      [body(5), body(6), { text: 'Summary', size: 11, bold: true }, body(7)],
    ];
    const markdown = mainMarkdown(await convertBytes(await bookmarkedPdf(pages, [{ title: 'Summary', page: 2 }]), { mode: 'fast' }));
    // The first, set as the named one is, is no heading: the outline names every heading set so.
    expect(markdown).toContain('paragraph.\n\nSummary\n\nLine 4');
    expect(markdown).toContain('paragraph.\n\n## Summary\n\nLine 7');
    expect(headingsOf(markdown)).toEqual(['## Summary']);
  });

  it('sets a LibreOffice paper\'s title above the sections its outline names', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/abstract-leads.pdf', import.meta.url)));
    const headings = headingsOf(mainMarkdown(await convertBytes(bytes, { mode: 'fast' })));
    expect(headings[0]).toBe('# Sparse Attention for Long Documents');
    expect(headings.filter((line) => /^#+ \d /.test(line))).toEqual(['## 1 Introduction', '## 2 Related work', '## 1 Introduction', '## 2 Data']);
  });
});

describe('the outline read from the bytes', () => {
  const byPdfjs = async (bytes: Uint8Array) => {
    const { doc } = await openPdf(bytes);
    try {
      return await pdfjsOutline(doc);
    } finally {
      await doc.destroy();
    }
  };

  it('reads what pdfjs reads on every printed fixture, without opening the document', async () => {
    const folder = new URL('../../fixtures/printed/', import.meta.url);
    const files = readdirSync(folder).filter((name) => name.endsWith('.pdf'));
    let bookmarks = 0;
    for (const name of files) {
      const bytes = new Uint8Array(readFileSync(new URL(name, folder)));
      const stated = readStatedOutline(bytes);
      expect(stated, name).toEqual({ entries: await byPdfjs(bytes), loops: false });
      bookmarks += stated!.entries.length;
    }
    expect(bookmarks).toBeGreaterThan(50);
  });

  it('follows named destinations, nesting and object streams as pdfjs does', async () => {
    for (const [named, packed] of [[undefined, false], ['dictionary', false], ['tree', false], ['tree', true]] as const) {
      const bytes = await bookmarkedPdf(REPORT, OUTLINE, named ? { named, packed } : { packed });
      expect(readStatedOutline(bytes)?.entries).toEqual([
        { title: 'Membership', depth: 0, page: 1 },
        { title: 'Finances', depth: 0, page: 2 },
        { title: 'Income', depth: 1, page: 2 },
        { title: 'Spending', depth: 1, page: 2 },
      ]);
      expect(readStatedOutline(bytes)?.entries).toEqual(await byPdfjs(bytes));
    }
  });

  it('reads an outline that loops back on itself once, and the document whole, in the clear or packed', async () => {
    for (const packed of [false, true]) {
      const pdf = await PDFDocument.load(await bookmarkedPdf(REPORT, OUTLINE, { packed }));
      const root = pdf.catalog.lookup(PDFName.of('Outlines'), PDFDict);
      root.lookup(PDFName.of('Last'), PDFDict).set(PDFName.of('Next'), root.get(PDFName.of('First'))!);
      const looped = await pdf.save({ useObjectStreams: packed });
      const stated = readStatedOutline(looped);
      expect(stated?.loops).toBe(true);
      expect(stated?.entries).toEqual(await byPdfjs(looped));
      // PDFium, as LiteParse walks the bookmarks, would follow the loop for ever, its thread beyond recall.
      const markdown = mainMarkdown(await convertBytes(looped, { mode: 'fast' }));
      expect(headingsOf(markdown)).toEqual(REPORT_HEADINGS);
    }
  });
});

describe('a bookmark\'s title against a heading', () => {
  it('is compared without case, spacing, punctuation or the heading\'s number', () => {
    expect(titleKey('2.1  Income:')).toBe(titleKey('income'));
    expect(titleKey('Chapter 3. The Sea')).toBe(titleKey('The sea'));
    expect(titleKey('Ⅱ. 분석 결과')).toBe(titleKey('분석 결과'));
    expect(titleKey('제 2 장 결론')).toBe(titleKey('결론'));
  });
});
