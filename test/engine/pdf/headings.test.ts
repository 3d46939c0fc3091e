import { describe, expect, it } from 'vitest';
import {
  addToHistogram,
  bodySizeOf,
  classifyHeadings,
  isHeadingLike,
  isNumberedHeadingLine,
  type HeadingCandidate,
} from '../../../src/engine/pdf/headings.js';
import { isBoldFontName } from '../../../src/engine/pdf/text-items.js';

const BODY = { size: 10, bold: false };

function candidate(text: string, size: number, options: Partial<HeadingCandidate> = {}): HeadingCandidate {
  return { page: 1, text, size, bold: false, lines: 1, ...options };
}

describe('bodySizeOf', () => {
  it('is the most common size by characters, not by lines', () => {
    const histogram = new Map<number, number>();
    addToHistogram(histogram, 24, 30);
    addToHistogram(histogram, 10.02, 4000);
    addToHistogram(histogram, 9, 800);
    expect(bodySizeOf(histogram)).toBeCloseTo(10.02, 5);
    expect(bodySizeOf(new Map())).toBe(0);
  });

  it('is the mean size of the most common half-point class, as the body is set', () => {
    const histogram = new Map<number, number>();
    addToHistogram(histogram, 5.6, 3000);
    addToHistogram(histogram, 5.46, 1000);
    addToHistogram(histogram, 6.3, 2500);
    expect(bodySizeOf(histogram)).toBeCloseTo(5.565, 5);
  });
});

describe('isNumberedHeadingLine', () => {
  it('takes a numbered line set bigger than the body, not a list item at its size', () => {
    expect(isNumberedHeadingLine('1. CANON EOS R6 MARK II', 18, 1, BODY)).toBe(true);
    expect(isNumberedHeadingLine('a. First Looks', 14, 1, BODY)).toBe(true);
    expect(isNumberedHeadingLine('1. Preheat the oven', 10, 1, BODY)).toBe(false);
    expect(isNumberedHeadingLine('1. Preheat the oven and grease the tin', 14, 2, BODY)).toBe(false);
    expect(isNumberedHeadingLine('• Plan to spend', 14, 1, BODY)).toBe(false);
  });
});

describe('isHeadingLike', () => {
  it('accepts short bigger or bold lines', () => {
    expect(isHeadingLike(candidate('Introduction', 14), BODY)).toBe(true);
    expect(isHeadingLike(candidate('Method', 10, { bold: true }), BODY)).toBe(true);
  });

  it('rejects body-size regular text, long text, sentences and numbers', () => {
    expect(isHeadingLike(candidate('Introduction', 10), BODY)).toBe(false);
    expect(isHeadingLike(candidate(Array.from({ length: 30 }, () => 'word').join(' '), 14), BODY)).toBe(false);
    expect(isHeadingLike(candidate('This is a sentence that ends with a full stop here.', 14), BODY)).toBe(false);
    expect(isHeadingLike(candidate('12.5 %', 14), BODY)).toBe(false);
    expect(isHeadingLike(candidate('lower-case start', 14), BODY)).toBe(false);
    expect(isHeadingLike(candidate('Method', 10, { bold: true }), { size: 10, bold: true })).toBe(false);
  });

  it("takes a name in lower case set alone in bold display type (a manual's function), not a bold run-on", () => {
    expect(isHeadingLike(candidate('asn1_parser2tree', 12, { bold: true }), BODY)).toBe(true);
    expect(isHeadingLike(candidate('iOS apps', 12, { bold: true }), BODY)).toBe(true);
    // At the body's size, over two lines, or with a sentence's punctuation: the rest of a sentence.
    expect(isHeadingLike(candidate('and the results below', 10, { bold: true }), BODY)).toBe(false);
    expect(isHeadingLike(candidate('and the results', 12, { bold: true, lines: 2 }), BODY)).toBe(false);
    expect(isHeadingLike(candidate('see the results,', 12, { bold: true }), BODY)).toBe(false);
  });

  it("never takes a line holding an e-mail address for a heading: a title page's authors, a letterhead", () => {
    expect(isHeadingLike(candidate('Fabio Fiorina Simon Josefsson (help-libtasn1@gnu.org)', 14, { bold: true, lines: 2 }), BODY)).toBe(false);
    expect(isHeadingLike(candidate('Contact: jane.doe@example.co.uk', 12, { bold: true }), BODY)).toBe(false);
    expect(isHeadingLike(candidate('tal197 at users.sf.net', 12, { bold: true }), BODY)).toBe(false);
    expect(isHeadingLike(candidate('Contact us', 12, { bold: true }), BODY)).toBe(true);
    expect(isHeadingLike(candidate('Meet at 5.30', 12, { bold: true }), BODY)).toBe(true);
  });
});

describe('isHeadingLike: captions, cut paragraphs and display type', () => {
  it('never takes a figure or table caption for a heading, in English or Korean', () => {
    for (const text of ['Figure 9.4.1: Challenges in importing', 'TABLE 2. Results', 'Fig. 3 | Overview', '그림 1. 연구 모형', '<표 2> 주요 지표']) {
      expect(isHeadingLike(candidate(text, 12, { bold: true }), BODY), text).toBe(false);
    }
    expect(isHeadingLike(candidate('Figures and tables', 12, { bold: true }), BODY)).toBe(true);
  });

  it('rejects a bold paragraph start cut at a line-end hyphen', () => {
    expect(isHeadingLike(candidate('Comparison to other up-scaling methods. Un-', 10, { bold: true }), BODY)).toBe(false);
  });

  it('takes a long sentence set in display type for a heading, not one at text size', () => {
    const sentence = 'Tycho Brahe (1546-1601) and Johannes Kepler (1571-1630).';
    expect(isHeadingLike(candidate(sentence, 14.5), { size: 9, bold: false })).toBe(true);
    expect(isHeadingLike(candidate(sentence, 10.5), { size: 9, bold: false })).toBe(false);
  });
});

describe('classifyHeadings', () => {
  it("leaves out a small label standing first on its page above a much bigger title, not a chapter's number", () => {
    const kicker = classifyHeadings(
      [candidate('AI Pack', 13, { order: 0 }), candidate('Upstage offers 3 AI packs', 22, { order: 1 })],
      { size: 11, bold: false },
    );
    expect(kicker).toEqual([null, { type: 'title', level: 1 }]);
    const chapter = classifyHeadings(
      [candidate('Chapter 3', 13, { order: 0 }), candidate('Numerical differentiation', 22, { order: 1 })],
      { size: 11, bold: false },
    );
    expect(chapter[0]).not.toBeNull();
    const notFirst = classifyHeadings(
      [candidate('AI Pack', 13, { order: 2 }), candidate('Upstage offers 3 AI packs', 22, { order: 3 })],
      { size: 11, bold: false },
    );
    expect(notFirst[0]).not.toBeNull();
  });

  it('takes a centred first heading in the type of numbered sections for the title, only where it is centred and they are numbered', () => {
    const sections = [candidate('1. Introduction', 18, { bold: true, order: 1 }), candidate('2. Finances', 18, { bold: true, page: 2, order: 0 })];
    const opening = (centred: boolean) => candidate('Annual Report 2025', 18, { bold: true, order: 0, centred });
    expect(classifyHeadings([opening(true), ...sections], BODY).map((decision) => decision?.level)).toEqual([1, 2, 2]);
    expect(classifyHeadings([opening(true), ...sections], BODY)[0]?.type).toBe('title');
    // Flush left, it is a section of its own (an `Executive summary` before `1.`); beside unnumbered sections, one of them.
    expect(classifyHeadings([opening(false), ...sections], BODY)[0]).toEqual({ type: 'section_header', level: 2 });
    const unnumbered = [candidate('Introduction', 18, { bold: true, order: 1 }), candidate('Finances', 18, { bold: true, page: 2, order: 0 })];
    expect(classifyHeadings([opening(true), ...unnumbered], BODY)[0]?.type).toBe('section_header');
    // Unless its words run as the document's header (a handbook's name over every page).
    const named = candidate('Annual Report 2025', 18, { bold: true, order: 0, centred: true, runsAsHeader: true });
    expect(classifyHeadings([named, ...unnumbered], BODY).map((decision) => decision?.level)).toEqual([1, 2, 2]);
  });

  it('gives the levels of a document set in more heading styles than levels to its most used styles', () => {
    // A long booklet: its sections' four bold sizes used page after page, and display sizes on a few pages (booklet
    // covers at 24 and 21 pt, a box's 15 pt, a chart's 10.5 pt): by size alone the sections' styles fell to one level.
    const styles: [size: number, uses: number][] = [[24, 2], [21, 3], [16, 20], [15, 2], [14, 40], [12, 40], [11, 10], [10.5, 2]];
    const candidates = styles.flatMap(([size, uses]) => Array.from({ length: uses }, (_, i) => candidate(`Heading ${size} ${i}`, size, { bold: true, page: 2 + i })));
    const levelOf = (size: number) => classifyHeadings(candidates, BODY)[candidates.findIndex((entry) => entry.size === size)]?.level;
    expect([16, 14, 12, 11].map(levelOf)).toEqual([3, 4, 5, 6]);
    // Bigger than every most used style: the top level; between two, the smaller one's; smaller than all, the last.
    expect([24, 21, 15, 10.5].map(levelOf)).toEqual([2, 2, 4, 6]);
  });

  it('makes the largest unique heading on page 1 the title and ranks the rest by size', () => {
    const decisions = classifyHeadings(
      [
        candidate('Dense Passage Retrieval', 17),
        candidate('1 Introduction', 12, { bold: true }),
        candidate('Body text that is not a heading at all', 10),
        candidate('3.1 Overview', 11, { bold: true, page: 2 }),
        candidate('Training details', 10, { bold: true, page: 2 }),
        candidate('2 Background', 12, { bold: true, page: 2 }),
      ],
      BODY,
    );
    expect(decisions).toEqual([
      { type: 'title', level: 1 },
      { type: 'section_header', level: 2 },
      null,
      { type: 'section_header', level: 3 },
      { type: 'section_header', level: 4 },
      { type: 'section_header', level: 2 },
    ]);
  });

  it('gives a deep outline all six Markdown levels, the title first', () => {
    const decisions = classifyHeadings(
      [
        candidate('Operating a Document Archive', 20),
        candidate('2 Keeping it running', 16, { bold: true }),
        candidate('2.1 Failures', 14, { bold: true }),
        candidate('2.1.1 Causes', 12, { bold: true }),
        candidate('2.1.1.1 Encrypted files', 11, { bold: true }),
        candidate('2.1.1.1.1 Passwords', 10, { bold: true }),
      ],
      BODY,
    );
    expect(decisions.map((decision) => decision?.level)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("reads a paper's title block as the title and text: its authors and its date head nothing", () => {
    const block = (text: string, size: number, order: number, options: Partial<HeadingCandidate> = {}) => candidate(text, size, { order, ...options });
    const decisions = classifyHeadings(
      [
        block('Adaptive Batching for Document Ingestion', 17, 0),
        block('Ada Lovelace*', 12, 1),
        block('Charles Babbage', 12, 2),
        block('March 2026', 12, 3),
        block('Abstract', 12, 4, { bold: true }),
        block('We study how batch size and worker concurrency interact in pipelines.', 10, 5, { lines: 4 }),
        block('1 Introduction', 14, 6, { bold: true }),
        block('2 Background', 14, 0, { bold: true, page: 2 }),
      ],
      BODY,
    );
    expect(decisions.map((decision) => decision?.type ?? null)).toEqual(['title', null, null, null, 'section_header', null, 'section_header', 'section_header']);
  });

  it('keeps the regular-weight headings under a title when the document goes on using their style', () => {
    const decisions = classifyHeadings(
      [
        candidate('Field Guide to Coastal Birds', 17, { order: 0 }),
        candidate('Shorebirds', 12, { order: 1 }),
        candidate('Plovers', 11, { order: 2, bold: true }),
        candidate('Seabirds', 12, { order: 0, page: 2 }),
        candidate('Gulls', 11, { order: 1, bold: true, page: 2 }),
      ],
      BODY,
    );
    expect(decisions.map((decision) => decision?.type ?? null)).toEqual(['title', 'section_header', 'section_header', 'section_header', 'section_header']);
  });

  it('never takes a date on its own line for a heading', () => {
    for (const date of ['March 2026', '1 April 2026', 'April 1, 2026', 'Sept. 30th, 2025', '2026-04-01']) {
      expect(isHeadingLike(candidate(date, 14, { bold: true }), BODY)).toBe(false);
    }
    expect(isHeadingLike(candidate('March Madness 2026', 14, { bold: true }), BODY)).toBe(true);
  });

  it('makes no title when the largest style is shared by other headings', () => {
    const decisions = classifyHeadings(
      [candidate('JavaScript Code Example', 14.5, { bold: true }), candidate('Formula', 14.5, { bold: true, page: 2 })],
      BODY,
    );
    expect(decisions).toEqual([
      { type: 'section_header', level: 2 },
      { type: 'section_header', level: 2 },
    ]);
  });

  it('takes levels from numbering where headings share one style, and gives that style its level', () => {
    const decisions = classifyHeadings(
      [
        candidate('3 Training Details', 12, { bold: true }),
        candidate('4 Results', 12, { bold: true }),
        candidate('4.1 Experimental Details', 12, { bold: true }),
        candidate('Acknowledgments', 12, { bold: true }),
        candidate('제1장 서론', 12, { bold: true, page: 2 }),
        candidate('제2절 연구 방법', 12, { bold: true, page: 2 }),
        candidate('Chapter 4', 12, { bold: true, page: 3 }),
      ],
      BODY,
    );
    expect(decisions.map((decision) => decision?.level)).toEqual([2, 2, 3, 2, 2, 3, 2]);
  });

  it('puts numbered headings under the bigger unnumbered headings their numbers start again under', () => {
    const decisions = classifyHeadings(
      [
        candidate('Electrical Tools You Need', 18, { bold: true }),
        candidate('1. Pliers', 14, { bold: true }),
        candidate('2. Cutting Tools', 14, { bold: true }),
        // Set like the numbered headings, unnumbered: their level too.
        candidate('Accessories', 14, { bold: true }),
        candidate('Software for Your Business', 18, { bold: true, page: 2 }),
        candidate('1. Scheduling', 14, { bold: true, page: 2 }),
      ],
      BODY,
    );
    expect(decisions.map((decision) => decision?.level)).toEqual([2, 3, 3, 3, 2, 3]);
  });

  it('keeps the depths of numbered headings set alike under a bigger unnumbered one: `1.1` under `1.`', () => {
    const decisions = classifyHeadings(
      [
        candidate('SUPPLY OF GOODS', 14, { bold: true }),
        candidate('1. DEFINITIONS', 11, { bold: true }),
        candidate('1.1 Goods', 11, { bold: true }),
        candidate('2. DELIVERY', 11, { bold: true }),
        candidate('2.1 Time of delivery', 11, { bold: true }),
        candidate('2.1.1 Late delivery', 11, { bold: true }),
        candidate('SUPPLY OF SERVICES', 14, { bold: true, page: 2 }),
        candidate('1. SCOPE', 11, { bold: true, page: 2 }),
        candidate('1.1 Hours', 11, { bold: true, page: 2 }),
      ],
      BODY,
    );
    expect(decisions.map((decision) => decision?.level)).toEqual([2, 3, 4, 3, 4, 5, 2, 3, 4]);
  });

  it('sets an appendix level with the numbered sections before it and its lettered sections under it', () => {
    const decisions = classifyHeadings(
      [
        candidate('1 Introduction', 10, { bold: true }),
        candidate('1.1 Scope', 10, { bold: true }),
        candidate('2 Results', 10, { bold: true }),
        candidate('2.1 Rivers', 10, { bold: true }),
        candidate('Appendix A Station list', 10, { bold: true }),
        candidate('A.1 Rivers', 10, { bold: true }),
        candidate('A.1.1 Upland rivers', 10, { bold: true }),
        candidate('Annex 2 Laboratory methods', 10, { bold: true }),
      ],
      BODY,
    );
    expect(decisions.map((decision) => decision?.level)).toEqual([2, 3, 2, 3, 2, 3, 4, 2]);
  });

  it('keeps numbered siblings level where a scan measures them at sizes of their own', () => {
    // A scan's sizes are its lines' heights: a heading whose letters reach below the line reads taller.
    const decisions = classifyHeadings(
      [
        candidate('Board meeting, 14 November 2026', 24),
        candidate('1. Minutes of the last meeting', 17),
        candidate('2. Finance report', 16),
        candidate('3. Action items', 14),
        candidate('4. Any other business', 17),
      ],
      { size: 11, bold: false },
    );
    expect(decisions.map((decision) => decision?.level)).toEqual([1, 2, 2, 2, 2]);
    // With no title over them, the largest of them is still one of them, not the title.
    const untitled = classifyHeadings([candidate('1 Introduction', 15), candidate('1.1 Priorities', 12), candidate('2 Budget', 17), candidate('3 Outlook', 15)], { size: 10, bold: false });
    expect(untitled.map((decision) => decision?.level)).toEqual([2, 3, 2, 2]);
  });

  it('keeps a title that opens with a number over the numbered items it counts', () => {
    const items = Array.from({ length: 11 }, (_, i) => candidate(`${i + 1}. Brand number ${i + 1}`, 16));
    const decisions = classifyHeadings([candidate('11 sustainable clothing brands to know', 26), ...items], BODY);
    expect(decisions.map((decision) => decision?.level)).toEqual([1, ...items.map(() => 2)]);
  });

  it('puts lettered headings under the bigger numbered heading they follow', () => {
    const decisions = classifyHeadings(
      [
        candidate('New Technologies in Video', 24, { bold: true }),
        candidate('1. Robotics', 18, { bold: true }),
        candidate('a. About Video Production Robots', 14, { bold: true }),
        candidate('2. Virtual Production', 18, { bold: true }),
        candidate('a. First Looks', 14, { bold: true }),
        candidate('3. Lighting', 14, { bold: true }),
      ],
      BODY,
    );
    expect(decisions.map((decision) => decision?.level)).toEqual([1, 2, 3, 2, 3, 3]);
  });

  it('ranks bold before regular at the same size', () => {
    const decisions = classifyHeadings(
      [candidate('Bold Heading', 12, { bold: true }), candidate('Regular Heading', 12)],
      BODY,
    );
    expect(decisions.map((decision) => decision?.level)).toEqual([2, 3]);
  });

  it('takes a chapter label on its own line right above a heading for a heading, even at body size and weight', () => {
    const decisions = classifyHeadings(
      [
        candidate('CHAPTER 1.', 10, { order: 0 }),
        candidate('California', 12, { order: 1 }),
        candidate('The chapter opens with the state law and what it asks of colleges.', 10, { order: 2 }),
        // The same words in a sentence, or a label with no heading under it, stay text.
        candidate('Chapter 2', 10, { order: 3 }),
        candidate('continues the story of the pilot in a paragraph of its own here.', 10, { order: 4 }),
      ],
      BODY,
    );
    expect(decisions.map((decision) => decision !== null)).toEqual([true, true, false, false, false]);
  });

  it('takes a bold line over a sidebar set in smaller type for a heading, not a bold label over body text or alone', () => {
    const sidebar = 'Similar processes with very different results!';
    const decisions = classifyHeadings(
      [
        candidate('Mitosis and Meiosis', 8, { bold: true, order: 0 }),
        candidate(sidebar, 8, { order: 1 }),
        // Small bold type over text of the body's size: a label, as before.
        candidate('Note', 8, { bold: true, order: 2 }),
        candidate('The body text goes on here at its own size.', 10, { order: 3 }),
        // Small bold type with nothing right under it on its page.
        candidate('Source', 8, { bold: true, order: 4 }),
        candidate(sidebar, 8, { order: 0, page: 2 }),
      ],
      BODY,
    );
    expect(decisions.map((decision) => decision !== null)).toEqual([true, false, false, false, false, false]);
  });
});

describe('isBoldFontName', () => {
  it('reads the weight from PostScript names', () => {
    for (const name of [
      'TimesNewRomanPS-BoldMT',
      'ABCDEF+Helvetica-Bold',
      'Arial,Black',
      'SourceSansPro-Semibold',
      'YGCXDP+NimbusRomNo9L-Medi',
      'CHJOZT+CMBX12',
      'AAAAAD+SFBX1000',
      'IJMAAR+SDGothicNeoc-fBd',
      'Roboto-Heavy',
    ]) {
      expect(isBoldFontName(name), name).toBe(true);
    }
    for (const name of ['TimesNewRomanPSMT', 'ZJXLJS+NimbusRomNo9L-Regu', 'FPGMBL+CMR10', 'Helvetica-Oblique', 'CMSY10', '']) {
      expect(isBoldFontName(name), name).toBe(false);
    }
  });
});
