/**
 * The PowerPoint 97-2003 converter (.ppt, and any OLE2 file whose directory holds a `PowerPoint Document` stream),
 * one page per slide, rendered like the PPTX converter's slides (slides/render-slide.ts).
 *
 * The persist directory (ppt-persist.ts) leads to the DocumentContainer, whose SlideListWithText records give the
 * slides in presentation order (their SlidePersistAtoms) and the text of their placeholders; each Slide container's
 * drawing gives its shapes in drawing order, with their anchors (for reading order and bboxes), placeholder kinds
 * and text (in the shape's ClientTextbox, or referenced into the SlideListWithText by an OutlineTextRefAtom).
 *
 * - the title placeholder is the slide's heading (`# ` on the first slide, `## ` after);
 * - body text keeps its bullets and indent levels (StyleTextPropAtom), bold and italic;
 * - tables (group shapes with the tableProperties property) become GFM tables, cells placed by their anchors;
 * - date, footer, header and slide-number placeholders, the presentation's footer text (HeadersFootersContainer)
 *   and text boxes of the master slide (not its title/body prompts) are furniture;
 * - speaker notes (the NotesContainer named by the slide) go under `**Notes:**`; hidden slides are marked.
 *
 * Errors: an encrypted presentation (Current User token, CryptSession10Container, EncryptedSummary stream) is
 * ENCRYPTED_DOCUMENT; another Office file is UNSUPPORTED_FILE naming it; a damaged document stream, persist
 * directory or DocumentContainer is CORRUPT_DOCUMENT naming the cause; a slide that cannot be found is a failed page with a warning. A presentation
 * without text is not an error: its pages (one empty page when it has no slides) and a warning.
 */
import { EngineError } from '../engine-error.js';
import type { Converter, DocumentModel, MetadataValue, ModelPage } from '../model.js';
import { hiddenSlidesWarning, NO_TEXT_WARNING, renderSlide } from '../slides/render-slide.js';
import type { FurnitureKind, Paragraph, Rect, Slide, SlideItem } from '../slides/slide-model.js';
import { readI32, readU16, readU32, readU8 } from './bytes.js';
import type { CompoundFile } from '../bytes/cfb.js';
import { openLegacyContainer } from './legacy-container.js';
import { readPersistDirectory } from './ppt-persist.js';
import { childrenOf, damagedPresentation, descendants, type PptRecord, RecordBudget, recordAt } from './ppt-records.js';
import { atomText, frameParagraphs, isTitleType, RT, TEXT_TYPE, type TextFrame } from './ppt-text.js';
import { readSummaryInformation } from './summary-info.js';

const SOURCE = 'ppt';
/** Master units: 576 per inch. */
const POINTS_PER_UNIT = 72 / 576;
const MAX_RECORDS = 2_000_000;
const MAX_SLIDES = 10_000;

const RT_DOCUMENT = 0x03e8;
const RT_DOCUMENT_ATOM = 0x03e9;
const RT_SLIDE = 0x03ee;
const RT_SLIDE_ATOM = 0x03ef;
const RT_NOTES = 0x03f0;
const RT_SLIDE_PERSIST_ATOM = 0x03f3;
const RT_MAIN_MASTER = 0x03f8;
const RT_SLIDE_SHOW_INFO = 0x03f9;
const RT_DRAWING = 0x040c;
const RT_SLIDE_LIST_WITH_TEXT = 0x0ff0;
const RT_HEADERS_FOOTERS = 0x0fd9;
const RT_HEADERS_FOOTERS_ATOM = 0x0fda;
const RT_CSTRING = 0x0fba;
const RT_OUTLINE_TEXT_REF = 0x0f9e;
const RT_PLACEHOLDER_ATOM = 0x0bc3;
const RT_SPGR_CONTAINER = 0xf003;
const RT_SP_CONTAINER = 0xf004;
const RT_OPT = 0xf00b;
const RT_TERTIARY_OPT = 0xf122;
const RT_CHILD_ANCHOR = 0xf00f;
/** The tableProperties shape property: the group is a table. */
const PROPERTY_TABLE = 0x039f;
const MAX_TABLE_CELLS = 10_000;
const RT_CLIENT_TEXTBOX = 0xf00d;
const RT_CLIENT_ANCHOR = 0xf010;
const RT_CLIENT_DATA = 0xf011;

/** SlideListWithText instances. */
const LIST_SLIDES = 0;
const LIST_MASTERS = 1;
const LIST_NOTES = 2;
/** HeadersFootersContainer instance for slides. */
const HF_SLIDES = 3;

/** PlaceholderEnum values ([MS-PPT] 2.13.21). */
const TITLE_PLACEHOLDERS = new Set([1, 3, 13, 15, 17]);
const PLACEHOLDER_NOTES_BODY = 12;
const PROMPT_PLACEHOLDERS = new Set([1, 2, 3, 4, 5, 6]);
const FURNITURE_PLACEHOLDERS = new Map<number, FurnitureKind>([
  [7, 'page_footer'],
  [8, 'page_number'],
  [9, 'page_footer'],
  [10, 'page_header'],
]);

interface ListEntry {
  persistRef: number;
  slideId: number;
  frames: TextFrame[];
}

interface Shape {
  frame: TextFrame;
  rect: Rect | null;
  placeholder: number | null;
}

/** What every slide of a deck is read against. */
interface DeckContext {
  width: number | null;
  height: number | null;
  /** SlideListWithText entries of masters and notes, by slide id. */
  masters: ReadonlyMap<number, ListEntry>;
  notes: ReadonlyMap<number, ListEntry>;
  footers: readonly SlideItem[];
  /** The container a persist id points to, when it is of the type expected. */
  objectAt(persistRef: number, type: number): PptRecord | null;
}

interface ShapeParts {
  /** Anchor on the slide (top-level shapes). */
  rect: Rect | null;
  /** Anchor in its group's coordinates (shapes inside a group). */
  childRect: Rect | null;
  placeholder: number | null;
  frames: TextFrame[];
}

interface TableShape {
  rows: string[][];
  rect: Rect | null;
}

export const convertPpt: Converter = async (input) => {
  const container = openLegacyContainer(input, 'powerpoint');
  if (container.has('EncryptedSummary')) {
    throw new EngineError('ENCRYPTED_DOCUMENT', 'the PowerPoint presentation is password-protected (encrypted); remove the password and try again');
  }
  const stream = container.read('PowerPoint Document') as Uint8Array;
  return new PresentationReader(stream, container).read();
};

class PresentationReader {
  private readonly budget = new RecordBudget(MAX_RECORDS);
  private readonly masterCache = new Map<number, SlideItem[]>();

  constructor(
    private readonly stream: Uint8Array,
    private readonly container: CompoundFile,
  ) {}

  read(): DocumentModel {
    const { stream, budget } = this;
    const persist = readPersistDirectory(stream, this.currentUser(), budget);
    const documentAt = persist.offsetOf(persist.documentRef);
    const document = documentAt === undefined ? null : recordAt(stream, documentAt);
    if (document === null || document.type !== RT_DOCUMENT || !document.isContainer) {
      throw damagedPresentation('the persist directory does not lead to the document container');
    }
    const children = childrenOf(stream, document, budget);
    const documentAtom = children.find((record) => record.type === RT_DOCUMENT_ATOM);
    const lists = (instance: number) =>
      children.filter((record) => record.type === RT_SLIDE_LIST_WITH_TEXT && record.instance === instance).flatMap((record) => this.listEntries(record));
    const slides = lists(LIST_SLIDES);
    if (slides.length > MAX_SLIDES) {
      throw new EngineError('DOCUMENT_TOO_COMPLEX', `the presentation has ${slides.length} slides (at most ${MAX_SLIDES})`);
    }
    const context: DeckContext = {
      width: documentAtom === undefined ? null : positive(readI32(stream, documentAtom.start)),
      height: documentAtom === undefined ? null : positive(readI32(stream, documentAtom.start + 4)),
      masters: new Map(lists(LIST_MASTERS).map((entry) => [entry.slideId, entry])),
      notes: new Map(lists(LIST_NOTES).map((entry) => [entry.slideId, entry])),
      footers: this.presentationFooters(children),
      objectAt: (persistRef, type) => {
        const at = persist.offsetOf(persistRef);
        const record = at === undefined ? null : recordAt(stream, at);
        return record !== null && record.type === type && record.isContainer ? record : null;
      },
    };

    const pages: ModelPage[] = [];
    const warnings: string[] = [];
    const hidden: number[] = [];
    let firstTitle: string | null = null;
    slides.forEach((entry, index) => {
      const number = index + 1;
      const slide = this.readSlide(entry, number, context);
      if (slide === null) {
        warnings.push(`slide ${number} cannot be read (its record is missing or damaged).`);
        pages.push({ pageNumber: number, width: null, height: null, status: 'failed', blocks: [] });
        return;
      }
      if (slide.hidden) hidden.push(number);
      if (firstTitle === null && slide.title !== null) firstTitle = slide.title.text;
      pages.push(renderSlide(slide, { source: SOURCE, pointsPerUnit: POINTS_PER_UNIT }));
    });

    if (pages.length === 0) pages.push({ pageNumber: 1, width: null, height: null, status: 'ok', blocks: [] });
    if (hidden.length > 0) warnings.push(hiddenSlidesWarning(hidden));
    if (pages.every((page) => page.blocks.every((block) => block.markdown.trim() === '' || block.furniture))) warnings.push(NO_TEXT_WARNING);
    const metadata: Record<string, MetadataValue> = { ...readSummaryInformation(this.container) };
    if (metadata['title'] === undefined && firstTitle !== null) metadata['title'] = firstTitle;
    metadata['numPages'] = slides.length;
    const model: DocumentModel = { pages, metadata };
    if (warnings.length > 0) model.warnings = warnings;
    return model;
  }

  /** A slide's title, shapes, master decoration, footers and notes; null when its record cannot be found. */
  private readSlide(entry: ListEntry, number: number, context: DeckContext): Slide | null {
    const { stream, budget } = this;
    const slideRecord = context.objectAt(entry.persistRef, RT_SLIDE);
    if (slideRecord === null) return null;
    const slideChildren = childrenOf(stream, slideRecord, budget);
    const slideAtom = slideChildren.find((record) => record.type === RT_SLIDE_ATOM);
    const { texts, tables } = this.shapesOf(slideChildren, entry.frames);
    const title = texts.find((shape) => isTitle(shape) && plain(shape.frame) !== '');
    const items: SlideItem[] = texts.filter((shape) => shape !== title).flatMap((shape) => slideItem(shape));
    for (const table of tables) items.push({ kind: 'table', rows: table.rows, rect: table.rect });

    // Master decoration, unless the slide hides the master's objects (SlideAtom slideFlags fMasterObjects).
    const followsMaster = slideAtom === undefined || (readU16(stream, slideAtom.start + 20) & 0x01) !== 0;
    const master = slideAtom === undefined ? undefined : context.masters.get(readU32(stream, slideAtom.start + 12));
    const masterRecord = master === undefined ? null : context.objectAt(master.persistRef, RT_MAIN_MASTER);
    if (followsMaster && masterRecord !== null) items.push(...this.masterItems(masterRecord));
    items.push(...context.footers);

    const notesEntry = slideAtom === undefined ? undefined : context.notes.get(readU32(stream, slideAtom.start + 16));
    const notesRecord = notesEntry === undefined ? null : context.objectAt(notesEntry.persistRef, RT_NOTES);
    const notes: Paragraph[] =
      notesRecord === null
        ? []
        : this.shapesOf(childrenOf(stream, notesRecord, budget), notesEntry?.frames ?? [])
            .texts.filter((shape) => shape.frame.textType === TEXT_TYPE.notes || shape.placeholder === PLACEHOLDER_NOTES_BODY)
            .flatMap((shape) => frameParagraphs(shape.frame));

    const showInfo = slideChildren.find((record) => record.type === RT_SLIDE_SHOW_INFO);
    const titleText = title === undefined ? null : plain(title.frame).replace(/\s+/g, ' ');
    return {
      number,
      hidden: showInfo !== undefined && (readU16(stream, showInfo.start + 10) & 0x04) !== 0,
      width: context.width,
      height: context.height,
      title: titleText === null ? null : { text: titleText, rect: title?.rect ?? null },
      items,
      notes,
      comments: [],
    };
  }

  /** Text boxes of a master slide (not its placeholders: their text is a prompt), as furniture; read once per master. */
  private masterItems(master: PptRecord): SlideItem[] {
    let items = this.masterCache.get(master.start);
    if (items === undefined) {
      items = this.shapesOf(childrenOf(this.stream, master, this.budget), [])
        .texts.filter((shape) => shape.placeholder === null && !isTitle(shape) && plain(shape.frame) !== '' && plain(shape.frame) !== '*')
        .map((shape): SlideItem => ({ kind: 'text', paragraphs: frameParagraphs(shape.frame), rect: shape.rect, furniture: 'page_footer' }));
      this.masterCache.set(master.start, items);
    }
    return items;
  }

  /** The `Current User` stream, or null when it is missing or damaged (the edits are then found by a walk). */
  private currentUser(): Uint8Array | null {
    try {
      return this.container.read('Current User');
    } catch {
      return null;
    }
  }

  /** A SlideListWithText: a SlidePersistAtom per slide, each followed by the text of its placeholders. */
  private listEntries(list: PptRecord): ListEntry[] {
    const { stream } = this;
    const entries: ListEntry[] = [];
    let frame: TextFrame | undefined;
    for (const record of childrenOf(stream, list, this.budget)) {
      if (record.type === RT_SLIDE_PERSIST_ATOM) {
        entries.push({ persistRef: readU32(stream, record.start), slideId: readU32(stream, record.start + 12), frames: [] });
        frame = undefined;
        continue;
      }
      const entry = entries.at(-1);
      if (entry === undefined) continue;
      frame = this.addToFrame(record, frame, entry.frames);
    }
    return entries;
  }

  /** Text records in order: a TextHeaderAtom opens a frame, text and style atoms fill the open one. */
  private addToFrame(record: PptRecord, frame: TextFrame | undefined, frames: TextFrame[]): TextFrame | undefined {
    const { stream } = this;
    if (record.type === RT.textHeaderAtom) {
      const opened: TextFrame = { textType: readU32(stream, record.start), text: '' };
      frames.push(opened);
      return opened;
    }
    if (frame === undefined) return frame;
    if (record.type === RT.textCharsAtom || record.type === RT.textBytesAtom) frame.text += atomText(stream, record.type, record.start, record.end);
    else if (record.type === RT.styleTextPropAtom) frame.style = stream.subarray(record.start, record.end);
    return frame;
  }

  /**
   * The text shapes of a slide, master or notes container in drawing order, and its tables. Text referenced into
   * the SlideListWithText (OutlineTextRefAtom) is taken from `listFrames`; list frames no shape refers to come last.
   * A table is a group shape marked with the tableProperties property; its cells are the group's shapes, placed on
   * a grid by their anchors (PowerPoint 2000 and later write tables so).
   */
  private shapesOf(children: readonly PptRecord[], listFrames: readonly TextFrame[]): { texts: Shape[]; tables: TableShape[] } {
    const { stream, budget } = this;
    const drawing = children.find((record) => record.type === RT_DRAWING);
    const texts: Shape[] = [];
    const tables: TableShape[] = [];
    const used = new Set<number>();
    let tableEnd = -1;
    if (drawing !== undefined) {
      for (const record of descendants(stream, drawing, budget)) {
        if (record.start < tableEnd) continue;
        if (record.type === RT_SPGR_CONTAINER) {
          const members = childrenOf(stream, record, budget);
          const group = members[0];
          if (group !== undefined && group.type === RT_SP_CONTAINER && this.isTable(group)) {
            tables.push(this.readTable(group, members.slice(1), listFrames, used));
            tableEnd = record.end;
          }
          continue;
        }
        if (record.type !== RT_SP_CONTAINER) continue;
        const parts = this.shapeParts(record, listFrames, used);
        for (const frame of parts.frames) texts.push({ frame, rect: parts.rect, placeholder: parts.placeholder });
      }
    }
    listFrames.forEach((frame, index) => {
      if (!used.has(index)) texts.push({ frame, rect: null, placeholder: null });
    });
    return { texts, tables };
  }

  /** A shape's anchors, placeholder kind and text frames. */
  private shapeParts(shape: PptRecord, listFrames: readonly TextFrame[], used: Set<number>): ShapeParts {
    const { stream, budget } = this;
    const parts: ShapeParts = { rect: null, childRect: null, placeholder: null, frames: [] };
    for (const part of childrenOf(stream, shape, budget)) {
      if (part.type === RT_CLIENT_ANCHOR) parts.rect = anchorRect(stream, part);
      else if (part.type === RT_CHILD_ANCHOR) parts.childRect = childAnchorRect(stream, part);
      else if (part.type === RT_CLIENT_DATA) {
        const atom = childrenOf(stream, part, budget).find((inner) => inner.type === RT_PLACEHOLDER_ATOM);
        if (atom !== undefined) parts.placeholder = readU8(stream, atom.start + 4);
      } else if (part.type === RT_CLIENT_TEXTBOX) {
        let frame: TextFrame | undefined;
        for (const inner of childrenOf(stream, part, budget)) {
          if (inner.type === RT_OUTLINE_TEXT_REF) {
            const index = readU32(stream, inner.start);
            const referenced = listFrames[index];
            if (referenced !== undefined && !used.has(index)) {
              used.add(index);
              parts.frames.push(referenced);
            }
            frame = undefined;
          } else {
            frame = this.addToFrame(inner, frame, parts.frames);
          }
        }
      }
    }
    return parts;
  }

  /** Whether a group's own shape carries the tableProperties property (in its OPT or tertiary OPT). */
  private isTable(group: PptRecord): boolean {
    const { stream } = this;
    for (const part of childrenOf(stream, group, this.budget)) {
      if (part.type !== RT_OPT && part.type !== RT_TERTIARY_OPT) continue;
      // instance = number of 6-byte property entries (opid, value), complex data after them.
      for (let index = 0; index < part.instance && part.start + index * 6 + 6 <= part.end; index += 1) {
        if ((readU16(stream, part.start + index * 6) & 0x3fff) === PROPERTY_TABLE) return true;
      }
    }
    return false;
  }

  private readTable(group: PptRecord, members: readonly PptRecord[], listFrames: readonly TextFrame[], used: Set<number>): TableShape {
    const cells: { rect: Rect; text: string }[] = [];
    for (const member of members.slice(0, MAX_TABLE_CELLS)) {
      if (member.type !== RT_SP_CONTAINER) continue;
      const parts = this.shapeParts(member, listFrames, used);
      // Borders are line shapes: no width or no height.
      if (parts.childRect === null || parts.childRect.width <= 0 || parts.childRect.height <= 0) continue;
      cells.push({ rect: parts.childRect, text: parts.frames.map((frame) => plain(frame)).filter((text) => text !== '').join('\n') });
    }
    const rect = this.shapeParts(group, [], new Set()).rect;
    const tops = [...new Set(cells.map((cell) => cell.rect.y))].sort((a, b) => a - b);
    const lefts = [...new Set(cells.map((cell) => cell.rect.x))].sort((a, b) => a - b);
    // Cells that do not line up into a plausible grid are kept as a one-column table rather than a huge empty one.
    if (tops.length * lefts.length > MAX_TABLE_CELLS) return { rows: cells.map((cell) => [cell.text]), rect };
    const rowOf = new Map(tops.map((top, index) => [top, index]));
    const columnOf = new Map(lefts.map((left, index) => [left, index]));
    const rows = tops.map(() => lefts.map(() => ''));
    for (const cell of cells) {
      const row = rows[rowOf.get(cell.rect.y) ?? -1];
      if (row !== undefined) row[columnOf.get(cell.rect.x) ?? 0] = cell.text;
    }
    return { rows, rect };
  }

  /** The footer and date texts the presentation sets for all slides (HeadersFootersContainer), as furniture. */
  private presentationFooters(children: readonly PptRecord[]): SlideItem[] {
    const { stream } = this;
    const container = children.find((record) => record.type === RT_HEADERS_FOOTERS && record.instance === HF_SLIDES);
    if (container === undefined) return [];
    const parts = childrenOf(stream, container, this.budget);
    const atom = parts.find((record) => record.type === RT_HEADERS_FOOTERS_ATOM);
    const flags = atom === undefined ? 0 : readU16(stream, atom.start + 2);
    const items: SlideItem[] = [];
    for (const part of parts) {
      if (part.type !== RT_CSTRING) continue;
      // CString instances: 0 user date (shown with fHasUserDate 0x04), 2 footer (fHasFooter 0x20).
      const shown = (part.instance === 0 && (flags & 0x04) !== 0) || (part.instance === 2 && (flags & 0x20) !== 0);
      const text = atomText(stream, RT.textCharsAtom, part.start, part.end).trim();
      if (shown && text !== '') items.push({ kind: 'text', paragraphs: [{ runs: [{ text }], list: null }], rect: null, furniture: 'page_footer' });
    }
    return items;
  }
}

function slideItem(shape: Shape): SlideItem[] {
  const text = plain(shape.frame);
  if (text === '') return [];
  const furniture = shape.placeholder === null ? undefined : FURNITURE_PLACEHOLDERS.get(shape.placeholder);
  // "*" alone is the slide-number or date field's stand-in character.
  if (text === '*' && furniture !== undefined) return [];
  if (shape.placeholder !== null && PROMPT_PLACEHOLDERS.has(shape.placeholder)) return [];
  const item: SlideItem = { kind: 'text', paragraphs: frameParagraphs(shape.frame), rect: shape.rect };
  if (furniture !== undefined) item.furniture = furniture;
  return [item];
}

function isTitle(shape: Shape): boolean {
  return shape.placeholder !== null ? TITLE_PLACEHOLDERS.has(shape.placeholder) : isTitleType(shape.frame.textType);
}

function plain(frame: TextFrame): string {
  // eslint-disable-next-line no-control-regex
  return frame.text.replace(/[\r\u000b]/g, '\n').trim();
}

/** ClientAnchor: SmallRectStruct (top, left, right, bottom as 16-bit) or RectStruct (32-bit), in master units. */
function anchorRect(stream: Uint8Array, anchor: PptRecord): Rect | null {
  const length = anchor.end - anchor.start;
  const read = length >= 16 ? (index: number) => readI32(stream, anchor.start + index * 4) : (index: number) => signed16(readU16(stream, anchor.start + index * 2));
  if (length < 8) return null;
  const top = read(0);
  const left = read(1);
  const right = read(2);
  const bottom = read(3);
  if (right < left || bottom < top) return null;
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** ChildAnchor: a RECT (left, top, right, bottom as 32-bit) in the group's coordinates. */
function childAnchorRect(stream: Uint8Array, anchor: PptRecord): Rect | null {
  if (anchor.end - anchor.start < 16) return null;
  const left = readI32(stream, anchor.start);
  const top = readI32(stream, anchor.start + 4);
  const right = readI32(stream, anchor.start + 8);
  const bottom = readI32(stream, anchor.start + 12);
  return { x: left, y: top, width: right - left, height: bottom - top };
}

function signed16(value: number): number {
  return value >= 0x8000 ? value - 0x10000 : value;
}

function positive(value: number): number | null {
  return value > 0 ? value : null;
}
