import { describe, expect, it } from 'vitest';
import {
  classifyFurniture,
  furnitureKey,
  runningLineOf,
  isPageNumberText,
  splitZones,
  type FurnitureCandidate,
} from '../../../src/engine/pdf/furniture.js';
import { buildLines } from '../../../src/engine/pdf/lines.js';
import { item, words } from './synthetic.js';

const HEIGHT = 792;

function page(header: string | null, footer: string | null) {
  const items = [];
  if (header) items.push(item(header, 72, 40, { size: 9 }));
  for (let i = 0; i < 20; i++) items.push(item(words(10, i), 72, 100 + i * 14));
  if (footer) items.push(item(footer, 290, 760, { size: 9 }));
  return buildLines(items);
}

describe('splitZones', () => {
  it("takes no line of double-spaced text apart whose sentence goes on in the next (a filing's first and last lines)", () => {
    const lines = [
      'COMES NOW the Plaintiff, by and through counsel, and for',
      'the Complaint against the Defendant alleges as follows:',
      ...Array.from({ length: 24 }, (_, i) => `${words(9, i)}.`),
      'On the first of March the Defendant entered into a written',
      'agreement with the Plaintiff.',
    ];
    const zones = splitZones(buildLines(lines.map((text, i) => item(text, 90, 60 + 24 * i, { size: 12 }))), HEIGHT);
    expect(zones.top).toEqual([]);
    expect(zones.bottom).toEqual([]);
  });

  it('sets isolated lines at the very top and bottom apart', () => {
    const zones = splitZones(page('ACME Report', '3'), HEIGHT);
    expect(zones.top.map((line) => line.text)).toEqual(['ACME Report']);
    expect(zones.bottom.map((line) => line.text)).toEqual(['3']);
    expect(zones.body).toHaveLength(20);
  });

  it('takes both margin lines of a page whose body is a table taken out of its lines, and leaves one otherwise', () => {
    const lines = buildLines([item('ACME Report', 72, 40, { size: 9 }), item('file:///archive/report.html 2/2', 72, 770, { size: 9 })]);
    const zones = splitZones(lines, HEIGHT, { bodyElsewhere: true });
    expect(zones.top.map((line) => line.text)).toEqual(['ACME Report']);
    expect(zones.bottom.map((line) => line.text)).toEqual(['file:///archive/report.html 2/2']);
    expect(splitZones(lines, HEIGHT).body.map((line) => line.text)).toEqual(['file:///archive/report.html 2/2']);
  });

  it('leaves a first body line alone when it is not isolated', () => {
    const items = [];
    for (let i = 0; i < 20; i++) items.push(item(words(10, i), 72, 60 + i * 14));
    const zones = splitZones(buildLines(items), HEIGHT);
    expect(zones.top).toEqual([]);
  });

  describe("lines at a page's foot that go on from one another", () => {
    const body = () => Array.from({ length: 18 }, (_, i) => item(words(10, i), 72, 100 + i * 14));
    const foot = (upper: string, lower: string, size = 10) => buildLines([...body(), item(upper, 72, 740, { size }), item(lower, 72, 754, { size })]);

    it("leave a paragraph's last two lines, a sentence broken at the line's end, in the body", () => {
      const zones = splitZones(foot('This closing paragraph falls at the foot of the page and wraps onto', 'a second line, as the last paragraph of many pages does.'), HEIGHT);
      expect(zones.bottom).toEqual([]);
      expect(zones.body.slice(-2).map((line) => line.text)).toEqual([
        'This closing paragraph falls at the foot of the page and wraps onto',
        'a second line, as the last paragraph of many pages does.',
      ]);
    });

    it('leave two items of one list in the body', () => {
      expect(splitZones(foot('1. Name two parts of a plant cell.', '2. Say what each one does.'), HEIGHT).bottom).toEqual([]);
      expect(splitZones(foot('• Printing at low cost', '• E-books through our app'), HEIGHT).bottom).toEqual([]);
    });

    it('still take a running footer of two lines: a name over an address, a sentence over the next', () => {
      expect(splitZones(foot('ACME Corporation', 'www.acme.example', 8), HEIGHT).bottom.map((line) => line.text)).toEqual(['ACME Corporation', 'www.acme.example']);
      expect(splitZones(foot('Confidential: for internal use only.', 'Do not forward this report outside the company.', 8), HEIGHT).bottom).toHaveLength(2);
      expect(splitZones(foot('3. Results', '7. Discussion', 8), HEIGHT).bottom).toHaveLength(2);
    });
  });

  it('accepts an isolated last line a bit above the bottom zone (big margins)', () => {
    const items = [];
    for (let i = 0; i < 20; i++) items.push(item(words(10, i), 72, 100 + i * 14));
    items.push(item('1', 300, 690));
    expect(splitZones(buildLines(items), HEIGHT).bottom.map((line) => line.text)).toEqual(['1']);
  });
});

describe('page numbers and keys', () => {
  it('recognises page-number shapes', () => {
    for (const text of ['7', 'Page 3', 'page 3 of 10', '3 / 10', '- 12 -', 'xiv', '[4]']) {
      expect(isPageNumberText(text), text).toBe(true);
    }
    for (const text of ['ACME Report', 'Chapter 3', '2024 results', '12345']) {
      expect(isPageNumberText(text), text).toBe(false);
    }
  });

  it('ignores digits and case in keys', () => {
    expect(furnitureKey('ACME Report — page 3')).toBe(furnitureKey('acme report — Page 14'));
  });
});

describe('classifyFurniture', () => {
  const c = (page: number, zone: 'top' | 'bottom', text: string, numberApart = false): FurnitureCandidate => ({
    page,
    zone,
    text,
    numberApart,
  });

  it('types repeated headers and footers, and page numbers', () => {
    const types = classifyFurniture([
      c(1, 'top', 'ACME Report'),
      c(1, 'bottom', 'Page 1 of 3'),
      c(2, 'top', 'ACME Report'),
      c(2, 'bottom', 'Page 2 of 3'),
      c(3, 'top', 'ACME Report'),
      c(3, 'bottom', 'Confidential – draft 3'),
      c(4, 'bottom', 'Confidential – draft 4'),
    ]);
    expect(types).toEqual([
      'page_header',
      'page_number',
      'page_header',
      'page_number',
      'page_header',
      'page_footer',
      'page_footer',
    ]);
  });

  it('leaves a line that appears once alone (a title at the top of page 1)', () => {
    expect(classifyFurniture([c(1, 'top', 'Dense Passage Retrieval'), c(2, 'top', 'Something else')])).toEqual([
      null,
      null,
    ]);
  });

  it('does not match a header line with a footer line', () => {
    expect(classifyFurniture([c(1, 'top', 'Annual report'), c(2, 'bottom', 'Annual report')])).toEqual([null, null]);
  });

  it('takes a running head with its page number set apart for a header, even on one page', () => {
    expect(classifyFurniture([c(1, 'top', 'Optimized Table Tokenization 9', true)])).toEqual(['page_header']);
    expect(classifyFurniture([c(1, 'top', 'Optimized Table Tokenization 9')])).toEqual([null]);
  });

  it('takes no line of numbers alone for a running head: the years over a table, a chart axis at the foot', () => {
    expect(classifyFurniture([c(1, 'top', '2024 2023', true), c(1, 'bottom', '0 5 10 15 20', true)])).toEqual([null, null]);
  });

  it('takes no line that merely ends in a number for a running head: the number must stand apart', () => {
    const line = 'TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934';
    expect(classifyFurniture([c(1, 'top', line)])).toEqual([null]);
  });

  it('takes a running head whose chapter part changes for a header where its other part recurs at its place', () => {
    const head = (page: number, chapter: string, x0 = 72): FurnitureCandidate => ({
      ...c(page, 'top', `Feasibility Study ${chapter}`),
      cells: [
        { text: 'Feasibility Study', x0 },
        { text: chapter, x0: 400 },
      ],
    });
    const heads = [head(1, 'Chapter 1: The site'), head(2, 'Chapter 2: The building'), head(3, 'Chapter 3: The costs')];
    expect(classifyFurniture(heads)).toEqual(['page_header', 'page_header', 'page_header']);
    // Elsewhere on the other page, or in the other zone, the part does not recur.
    expect(classifyFurniture([head(1, 'Chapter 1: The site'), head(2, 'Chapter 2: The building', 200)])).toEqual([null, null]);
    expect(classifyFurniture([head(1, 'Chapter 1: The site'), { ...head(2, 'Chapter 2: The building'), zone: 'bottom' }])).toEqual([null, null]);
  });

  it('takes no table row at the foot of pages for a running foot, however its label recurs', () => {
    const total = (page: number, figures: string): FurnitureCandidate => ({
      ...c(page, 'bottom', `Subtotal ${figures}`),
      cells: [
        { text: 'Subtotal', x0: 72 },
        { text: figures, x0: 300 },
      ],
    });
    expect(classifyFurniture([total(1, '1,240.00'), total(2, '15.50')])).toEqual([null, null]);
  });

  it('keeps a footnote at the foot of a page as text, also one that runs on to the next line with a broken word', () => {
    const note = '18 E.g., see the fitting code. Note that Matlab has inbuilt func-';
    expect(classifyFurniture([c(1, 'bottom', note, true), c(1, 'bottom', '12 A note that ends on its line here.', true)])).toEqual([null, null]);
    // A running foot with its page number set apart is still a footer.
    expect(classifyFurniture([c(1, 'bottom', '12 Overcoming Barriers to Women in Political Representation', true)])).toEqual(['page_footer']);
  });
});

describe('runningLineOf', () => {
  const known = [
    { type: 'page_header' as const, key: furnitureKey('11/28/26, 4:20 AM Duck - Wikipedia'), top: 16 },
    { type: 'page_footer' as const, key: furnitureKey('file:///archive/duck.html 3/17'), top: 768 },
  ];

  it('finds the running header or footer of other pages in a body line at the same height, digits and spacing aside', () => {
    expect(runningLineOf('11/29/26, 9:05 AM Duck - Wikipedia', 17, known)).toBe('page_header');
    expect(runningLineOf('11/28/26, 4:20 AM D uc k - Wikipedia', 16, known)).toBe('page_header');
    expect(runningLineOf('file:///archive/duck.html 9/17', 767.5, known)).toBe('page_footer');
  });

  it('leaves the same words elsewhere on the page, and other lines, to the body', () => {
    expect(runningLineOf('11/28/26, 4:20 AM Duck - Wikipedia', 300, known)).toBeNull();
    expect(runningLineOf('Ducks eat food sources such as grasses', 16, known)).toBeNull();
    expect(runningLineOf('11/28/26, 4:20 AM Duck - Wikipedia', 16, [])).toBeNull();
  });
});
