/**
 * The Word 97-2003 converter (.doc, and any OLE2 file whose directory holds a `WordDocument` stream).
 *
 * The compound file (cfb.ts) gives the WordDocument and table streams; the FIB (word-fib.ts) says where things are;
 * the piece table (word-text.ts) gives the text of every story; paragraph and character properties and the style
 * sheet (word-properties.ts) and list definitions (word-lists.ts) give the structure; word-story.ts resolves fields
 * and special characters. The main story becomes blocks:
 *
 * - paragraphs whose style is "heading 1".."heading 9" (or Title / Subtitle) are headings (`## ...`), the first
 *   level-1 heading typed `title`, as the HTML path types them;
 * - list paragraphs (a list override in their own or their style's properties) are grouped into one `list` block,
 *   `- item` or `1. item` by the list level's number format, indented by level;
 * - table paragraphs (in-table property; cells end with 0x07, rows with a TTP mark) become a GFM table, the first
 *   row as header; paragraphs of a nested table are kept as lines of their outer cell;
 * - bold, italic, struck-through text and hyperlinks are inline Markdown; Quote styles are `> ` quotes, Caption
 *   paragraphs `caption` blocks;
 * - a page or section break (0x0C) starts a new page.
 *
 * Text boxes anchored in the main text are read where they are anchored, after their paragraph. Footnotes and
 * endnotes are `[^N]` / `[^eN]` references with `[^N]: text` blocks (label `footnote`) at the end of
 * the document. Headers and footers (the header story, split by PlcfHdd) are `page_header` / `page_footer` /
 * `page_number` furniture blocks, each distinct text once: headers before the body on the first page, footers
 * after it on the last. Title and author come from the `\x05SummaryInformation` property set.
 *
 * Errors: an encrypted document (FIB fEncrypted, or an encrypted OOXML package) is ENCRYPTED_DOCUMENT; Word 6/95
 * files and other Office files UNSUPPORTED_FILE naming what they are; a damaged container, FIB or piece table
 * CORRUPT_DOCUMENT naming the cause. A document without text is not an error: one
 * empty page and the warning "the document has no text", as the DOCX converter gives.
 */
import { EngineError } from '../engine-error.js';
import type { Converter, DocumentModel, ModelBlock, ModelPage } from '../model.js';
import { readU16, readU32 } from './bytes.js';
import { openLegacyContainer } from './legacy-container.js';
import { furnitureBlock, hardBreaks, headingBlock, NO_TEXT_WARNING, plainText, renderRuns, tableBlock, textBlock } from './markdown.js';
import { readSummaryInformation } from './summary-info.js';
import { FC, type Fib, readFib } from './word-fib.js';
import { type ListFormats, readListFormats } from './word-lists.js';
import { readCharacterRuns, readParagraphRuns, readStyleSheet, type StyleSheet } from './word-properties.js';
import { readStory, type StoryParagraph, type StorySources } from './word-story.js';
import { plcCount, readPieceTable, readText } from './word-text.js';

const SOURCE = 'doc';
/** Built-in style identifiers of Caption, and of Quote and Intense Quote (Word 2007 and later). */
const STI_CAPTION = 34;
const QUOTE_STYLES = new Set([180, 181]);
/** List override 2047 (0x7FF) means "no list" (Word writes it to take a paragraph out of its style's list). */
const ILFO_NONE = 0x07ff;
/** Header stories: 6 separator stories, then 6 per section (even/odd header, even/odd footer, first header/footer). */
const HEADER_SEPARATOR_STORIES = 6;
const FOOTER_SLOTS = new Set([2, 3, 5]);
const FSPA_SIZE = 26;
const FTXBXS_SIZE = 22;

export const convertDoc: Converter = async (input) => {
  const container = openLegacyContainer(input, 'word');
  const wordStream = container.read('WordDocument') as Uint8Array;
  const fib = readFib(wordStream);
  const table = container.read(fib.tableStream);
  if (table === null) throw new EngineError('CORRUPT_DOCUMENT', `the Word document has no ${fib.tableStream} stream (its tables)`);

  const pieces = readPieceTable(table, ...fib.table(FC.clx));
  const storiesEnd = textBoxStoryStart(fib) + fib.ccpTxbx;
  const text = readText(wordStream, pieces, storiesEnd);
  const styles = readStyleSheet(table, ...fib.table(FC.stshf));
  const lists = readListFormats(table, fib.table(FC.plfLst), fib.table(FC.plfLfo));
  const notes = new Notes(table, fib);
  const sources: StorySources = {
    text,
    paragraphs: readParagraphRuns(table, fib.table(FC.plcfBtePapx), wordStream, styles),
    characters: readCharacterRuns(table, fib.table(FC.plcfBteChpx), wordStream),
    noteReference: (cp) => notes.reference(cp),
  };
  const textBoxes = new TextBoxes(table, fib);
  sources.textBoxAt = (cp) => textBoxes.at(cp, { ...sources, textBoxAt: undefined });

  const body = readStory(sources, 0, fib.ccpText);
  const pages = new PageBuilder(styles, lists).build(body);
  const noteBlocks = notes.blocks(sources);
  const { headers, footers } = headerFooterBlocks(sources, table, fib);
  const first = pages[0] as ModelPage;
  const last = pages.at(-1) as ModelPage;
  first.blocks.unshift(...headers);
  last.blocks.push(...noteBlocks, ...footers);

  const model: DocumentModel = { pages, metadata: readSummaryInformation(container) };
  if (pages.every((page) => page.blocks.every((block) => block.furniture === true))) model.warnings = [NO_TEXT_WARNING];
  return model;
};

/** Main-story paragraphs → pages of blocks. */
class PageBuilder {
  private readonly pages: ModelPage[] = [];
  private blocks: ModelBlock[] = [];
  private listLines: string[] = [];
  private readonly counters = new Map<string, number>();
  private rows: string[][] = [];
  private row: string[] = [];
  private cell: string[] = [];
  private titleTaken = false;

  constructor(
    private readonly styles: StyleSheet,
    private readonly lists: ListFormats,
  ) {}

  build(paragraphs: readonly StoryParagraph[]): ModelPage[] {
    for (const paragraph of paragraphs) this.add(paragraph);
    this.flushTable();
    this.flushList();
    this.newPage();
    return this.pages;
  }

  private add(paragraph: StoryParagraph): void {
    if (paragraph.end === 'page') {
      this.flushTable();
      this.flushList();
      this.newPage();
      return;
    }
    const { properties } = paragraph;
    if (properties.depth > 0 || properties.inTable) {
      this.flushList();
      this.addToTable(paragraph);
      return;
    }
    this.flushTable();
    const style = this.styles.byIstd(properties.istd);
    const plain = plainText(paragraph.runs).trim();
    const level = style?.headingLevel ?? 0;
    if (level > 0 && plain !== '') {
      this.flushList();
      const isTitle = level === 1 && !this.titleTaken;
      if (isTitle) this.titleTaken = true;
      this.blocks.push(headingBlock(level, plain, SOURCE, isTitle));
      return;
    }
    const markdown = hardBreaks(renderRuns(paragraph.runs));
    if (properties.ilfo > 0 && properties.ilfo < ILFO_NONE && markdown !== '') {
      this.addListItem(properties.ilfo, properties.ilvl, markdown);
      return;
    }
    this.flushList();
    if (markdown === '') return;
    const name = style?.name.toLowerCase() ?? '';
    if (style?.sti === STI_CAPTION) this.blocks.push({ ...textBlock(markdown, SOURCE), type: 'caption' });
    else if (QUOTE_STYLES.has(style?.sti ?? 0) || name === 'quote' || name === 'intense quote') this.blocks.push(textBlock(`> ${markdown.replace(/\n/g, '\n> ')}`, SOURCE, 'quote'));
    else this.blocks.push(textBlock(markdown, SOURCE));
  }

  private addListItem(ilfo: number, ilvl: number, markdown: string): void {
    const level = Math.min(ilvl, 8);
    const kind = this.lists.kindOf(ilfo, level);
    // Deeper levels restart when a shallower item comes.
    for (let deeper = level + 1; deeper <= 8; deeper += 1) this.counters.delete(`${ilfo}:${deeper}`);
    const key = `${ilfo}:${level}`;
    const number = (this.counters.get(key) ?? 0) + 1;
    this.counters.set(key, number);
    const marker = kind === 'number' ? `${number}.` : '-';
    const indent = ' '.repeat(level * (kind === 'number' ? 3 : 2));
    this.listLines.push(`${indent}${marker} ${markdown.replace(/\n/g, `\n${indent}${' '.repeat(marker.length + 1)}`)}`);
  }

  private flushList(): void {
    if (this.listLines.length === 0) return;
    this.blocks.push(textBlock(this.listLines.join('\n'), SOURCE, 'list'));
    this.listLines = [];
  }

  private addToTable(paragraph: StoryParagraph): void {
    const { properties } = paragraph;
    const content = renderRuns(paragraph.runs, { inTable: true }).trim();
    if (properties.rowEnd && properties.depth <= 1) {
      // The row mark: a cell left open (a damaged row) is closed first.
      if (this.cell.length > 0) this.endCell();
      if (this.row.length > 0) this.rows.push(this.row);
      this.row = [];
      return;
    }
    if (content !== '') this.cell.push(content);
    if (paragraph.end === '\x07' && properties.depth <= 1) this.endCell();
  }

  private endCell(): void {
    this.row.push(this.cell.join('\n'));
    this.cell = [];
  }

  private flushTable(): void {
    if (this.cell.length > 0) this.endCell();
    if (this.row.length > 0) this.rows.push(this.row);
    if (this.rows.length > 0) {
      const block = tableBlock(this.rows, SOURCE);
      if (block !== null) this.blocks.push(block);
    }
    this.rows = [];
    this.row = [];
  }

  private newPage(): void {
    if (this.blocks.length === 0 && this.pages.length > 0) return;
    this.pages.push({ pageNumber: this.pages.length + 1, width: null, height: null, status: 'ok', blocks: this.blocks });
    this.blocks = [];
  }
}

/** Footnotes and endnotes: reference CPs in the main text, text ranges in their stories. */
class Notes {
  private readonly labels = new Map<number, string>();
  private readonly ranges: { label: string; start: number; end: number }[] = [];

  constructor(table: Uint8Array, fib: Fib) {
    this.collect(table, fib.table(FC.plcffndRef), fib.table(FC.plcffndTxt), fib.ccpText, '');
    this.collect(table, fib.table(FC.plcfendRef), fib.table(FC.plcfendTxt), fib.ccpText + fib.ccpFtn + fib.ccpHdd + fib.ccpAtn, 'e');
  }

  reference(cp: number): string | undefined {
    const label = this.labels.get(cp);
    return label === undefined ? undefined : `[^${label}]`;
  }

  blocks(sources: StorySources): ModelBlock[] {
    const blocks: ModelBlock[] = [];
    for (const range of this.ranges) {
      const paragraphs = readStory({ ...sources, noteReference: undefined }, range.start, range.end);
      const markdown = paragraphs
        .map((paragraph) => hardBreaks(renderRuns(paragraph.runs)))
        .filter((line) => line !== '')
        .join(' ');
      if (markdown !== '') blocks.push(textBlock(`[^${range.label}]: ${markdown}`, SOURCE, 'footnote'));
    }
    return blocks;
  }

  private collect(table: Uint8Array, refs: [number, number], texts: [number, number], storyStart: number, prefix: string): void {
    const [refOffset, refLength] = refs;
    const [textOffset, textLength] = texts;
    if (refLength === 0 || refOffset + refLength > table.length || textOffset + textLength > table.length) return;
    // PlcffndRef: n + 1 CPs and n 2-byte FRDs; PlcffndTxt: n + 2 CPs (the last one closes the story).
    const count = plcCount(refLength, 2);
    for (let index = 0; index < count; index += 1) {
      const label = `${prefix}${index + 1}`;
      this.labels.set(readU32(table, refOffset + index * 4), label);
      if ((index + 2) * 4 <= textLength) {
        const start = storyStart + readU32(table, textOffset + index * 4);
        const end = storyStart + readU32(table, textOffset + (index + 1) * 4);
        if (end > start) this.ranges.push({ label, start, end });
      }
    }
  }
}

/** Where the text box story starts: after the main text, footnotes, headers, comments and endnotes. */
function textBoxStoryStart(fib: Fib): number {
  return fib.ccpText + fib.ccpFtn + fib.ccpHdd + fib.ccpAtn + fib.ccpEdn;
}

/**
 * Text boxes of the main text: a drawing character (0x08) anchors a shape (PlcSpaMom: CP → FSPA, whose first field
 * is the shape id); a text box's text is a range of the text box story (PlcftxbxTxt: ranges → FTXBXS, whose `lid`
 * is the id of the shape showing it). Each text box is read once, where its first anchor is.
 */
class TextBoxes {
  private readonly shapeAt = new Map<number, number>();
  private readonly rangeOf = new Map<number, [start: number, end: number]>();

  constructor(table: Uint8Array, fib: Fib) {
    const [spaOffset, spaLength] = fib.table(FC.plcSpaMom);
    const [boxOffset, boxLength] = fib.table(FC.plcftxbxTxt);
    if (fib.ccpTxbx === 0 || spaOffset + spaLength > table.length || boxOffset + boxLength > table.length) return;
    const shapes = plcCount(spaLength, FSPA_SIZE);
    for (let index = 0; index < shapes; index += 1) {
      this.shapeAt.set(readU32(table, spaOffset + index * 4), readU32(table, spaOffset + (shapes + 1) * 4 + index * FSPA_SIZE));
    }
    const storyStart = textBoxStoryStart(fib);
    const boxes = plcCount(boxLength, FTXBXS_SIZE);
    for (let index = 0; index < boxes; index += 1) {
      const data = boxOffset + (boxes + 1) * 4 + index * FTXBXS_SIZE;
      // Reusable (deleted) text boxes keep a range but show nothing.
      if (readU16(table, data + 8) !== 0) continue;
      const start = readU32(table, boxOffset + index * 4);
      const end = Math.min(readU32(table, boxOffset + (index + 1) * 4), fib.ccpTxbx);
      if (end > start) this.rangeOf.set(readU32(table, data + 14), [storyStart + start, storyStart + end]);
    }
  }

  at(cp: number, sources: StorySources): StoryParagraph[] | undefined {
    const shape = this.shapeAt.get(cp);
    const range = shape === undefined ? undefined : this.rangeOf.get(shape);
    if (shape === undefined || range === undefined) return undefined;
    this.rangeOf.delete(shape);
    return readStory(sources, range[0], range[1]);
  }
}

function headerFooterBlocks(sources: StorySources, table: Uint8Array, fib: Fib): { headers: ModelBlock[]; footers: ModelBlock[] } {
  const headers: ModelBlock[] = [];
  const footers: ModelBlock[] = [];
  const [offset, length] = fib.table(FC.plcfHdd);
  if (fib.ccpHdd === 0 || length < 8 || offset + length > table.length) return { headers, footers };
  const storyStart = fib.ccpText + fib.ccpFtn;
  const count = Math.floor(length / 4) - 1;
  const seen = new Set<string>();
  for (let index = HEADER_SEPARATOR_STORIES; index < count; index += 1) {
    const start = readU32(table, offset + index * 4);
    const end = Math.min(readU32(table, offset + (index + 1) * 4), fib.ccpHdd);
    if (end <= start) continue;
    const text = readStory(sources, storyStart + start, storyStart + end)
      .map((paragraph) => plainText(paragraph.runs).trim())
      .filter((line) => line !== '')
      .join('\n');
    if (text === '' || seen.has(text)) continue;
    seen.add(text);
    const kind = FOOTER_SLOTS.has((index - HEADER_SEPARATOR_STORIES) % 6) ? 'footer' : 'header';
    (kind === 'header' ? headers : footers).push(furnitureBlock(text, kind, SOURCE));
  }
  return { headers, footers };
}

