/**
 * The RTF interpreter: walks the tokenizer's tokens once, with a state per group (RTF's formatting and destination
 * are scoped by braces), and feeds text and structure to flows (flow.ts).
 *
 * - Text bytes (raw and `\'hh`) are collected while consecutive and decoded together in the code page of the current
 *   font (`\fcharset`/`\cpg` in the font table) or of the document (`\ansicpg`), so double-byte characters are never
 *   split. `\\`, `\{` and `\}` join the bytes too: in Shift-JIS or Big5 they can be a character's trail byte.
 * - `\uN` is a UTF-16 code unit (negative N is N + 65536); the `\ucN` characters after it (group state, 1 by
 *   default) are its fallback for old readers and are skipped, whether text bytes, `\'hh` or control words.
 * - Destinations: the font table and style sheet are read (code pages, style names → heading levels), `\info` gives
 *   metadata, footnotes and page headers/footers get flows of their own, field instructions are read but not shown
 *   (a HYPERLINK's URL becomes the link of the field result's text), list markers (`\pntext`, `\listtext`) are kept
 *   as the paragraph's marker; pictures, objects, shapes' properties, bookmarks, index entries and every `\*`
 *   destination the reader does not know are skipped with their content. Hidden (`\v`) and deleted (`\deleted`)
 *   text is left out.
 *
 * Nesting is bounded: groups deeper than MAX_GROUP_DEPTH are read flat (their formatting scopes merge with the
 * group at the limit), so a file of a million `{` costs neither stack nor memory. Skipped destinations are walked
 * by a counter, without state. A truncated or unbalanced file keeps the text read, with a warning.
 */
import { CODE_PAGE_BY_CHARACTER_SET, codePageOfCharset, DEFAULT_CODE_PAGE, decodeBytes, isKnownCodePage } from './code-pages.js';
import {
  FURNITURE_DESTINATIONS,
  hyperlinkTarget,
  INFO_DATE_FIELDS,
  INFO_TEXT_FIELDS,
  SKIPPED_DESTINATIONS,
  SYMBOL_WORDS,
} from './destinations.js';
import { BODY_PARAGRAPH, Flow, type ParagraphInfo } from './flow.js';
import { RtfTokenizer, TokenKind } from './tokenizer.js';
import { raisedCharacters } from '../raised-characters.js';
import type { CellDefinition, RowDefinition } from './table-grid.js';

/** Cells a row definition keeps: more (a hostile file) are not laid out. */
const MAX_ROW_CELLS = 1000;

/** Groups nested deeper than this are read flat. Real documents stay far below it (Word: a few dozen). */
export const MAX_GROUP_DEPTH = 256;
const MAX_CAPTURE_CHARS = 8192;
const MAX_MARKER_CHARS = 64;
const MAX_STYLE_NAME_CHARS = 256;

export interface FurnitureFlow {
  kind: 'header' | 'footer';
  flow: Flow;
}

export interface RtfContent {
  body: Flow;
  /** Footnotes (and endnotes) in the order they were read, numbered from 1 like their references. */
  notes: { number: number; flow: Flow }[];
  furniture: FurnitureFlow[];
  metadata: Record<string, string>;
  warnings: string[];
}

interface FieldState {
  /** The URL of a HYPERLINK field, known once its instruction is read. */
  link: string | null;
}

interface StyleEntry {
  number: number;
  name: string;
  outlineLevel: number | null;
  /** Character, section and table styles (`\cs` `\ds` `\ts`) never make headings. */
  paragraphStyle: boolean;
}

/** Where a group's text goes. `close` runs when the group that set the destination ends. */
type Destination =
  | { kind: 'flow'; flow: Flow; close?: (closing: GroupState) => void }
  | { kind: 'capture'; text: string; limit: number; close: (text: string) => void }
  | { kind: 'fonts'; font: number }
  | { kind: 'styles' }
  | { kind: 'style'; entry: StyleEntry }
  | { kind: 'date'; parts: Record<string, number>; close: (parts: Record<string, number>) => void }
  /** Text dropped; `resume` is where `\ud` (in `\upr`) or `\shptxt` (in `\shp`) send it again. */
  | { kind: 'drop'; resume: Destination | null; listFlow?: Flow };

class GroupState {
  destination: Destination;
  unicodeSkip = 1;
  /** -1: the default font (`\deff`). */
  font = -1;
  /** The associated font of double-byte text (`\dbch\afN`), and whether the text now is double-byte. */
  doubleByteFont = -1;
  doubleByte = false;
  associatedMode: 'loch' | 'hich' | 'dbch' | null = null;
  bold = false;
  italic = false;
  /** `\super` / `\up` raise the text, `\sub` / `\dn` lower it; `\nosupersub` sets it back. */
  position: 'super' | 'sub' | null = null;
  hidden = false;
  style = 0;
  outlineLevel: number | null = null;
  inTable = false;
  listId = 0;
  listLevel: number | null = null;
  field: FieldState | null = null;
  link: string | null = null;

  constructor(destination: Destination) {
    this.destination = destination;
  }

  clone(): GroupState {
    const copy = new GroupState(this.destination);
    copy.unicodeSkip = this.unicodeSkip;
    copy.font = this.font;
    copy.doubleByteFont = this.doubleByteFont;
    copy.doubleByte = this.doubleByte;
    copy.associatedMode = this.associatedMode;
    copy.bold = this.bold;
    copy.italic = this.italic;
    copy.position = this.position;
    copy.hidden = this.hidden;
    copy.style = this.style;
    copy.outlineLevel = this.outlineLevel;
    copy.inTable = this.inTable;
    copy.listId = this.listId;
    copy.listLevel = this.listLevel;
    copy.field = this.field;
    copy.link = this.link;
    return copy;
  }

  resetCharacter(): void {
    this.font = -1;
    this.doubleByteFont = -1;
    this.doubleByte = false;
    this.associatedMode = null;
    this.bold = false;
    this.italic = false;
    this.position = null;
    this.hidden = false;
  }

  resetParagraph(): void {
    this.style = 0;
    this.outlineLevel = null;
    this.inTable = false;
    this.listId = 0;
    this.listLevel = null;
  }
}

export function readRtf(bytes: Uint8Array): RtfContent {
  return new RtfReader(bytes).read();
}

class RtfReader {
  private readonly tokenizer: RtfTokenizer;
  private readonly body = new Flow(true);
  private readonly notes: { number: number; flow: Flow }[] = [];
  private readonly furniture: FurnitureFlow[] = [];
  private readonly metadata: Record<string, string> = {};
  private readonly warnings: string[] = [];

  private readonly stack: GroupState[] = [];
  private state: GroupState;
  /** Groups opened past MAX_GROUP_DEPTH and not closed yet. */
  private flatDepth = 0;
  /** While > 0, a skipped destination is being stepped over; the count of its groups still open. */
  private skipDepth = 0;
  /** `\uN` fallback characters still to skip. */
  private pendingSkip = 0;
  private starPending = false;
  private unbalancedSeen = false;
  private flattenedSeen = false;

  private documentCodePage = DEFAULT_CODE_PAGE;
  private defaultFont = 0;
  private readonly fontCodePages = new Map<number, number | null>();
  /** The table row being defined (`\trowd` … `\cellx`), which stays in force until the next `\trowd`. */
  private rowDefinition: RowDefinition = { left: 0, cells: [] };
  /** Merge marks read for the next `\cellx`. */
  private pendingMerge: Pick<CellDefinition, 'horizontalMerge' | 'verticalMerge'> = { horizontalMerge: null, verticalMerge: null };
  /** Paragraph styles by number, filled as the style sheet's entries end. */
  private readonly styles = new Map<number, StyleEntry>();

  private byteBuffer = new Uint8Array(1024);
  private byteLength = 0;
  private byteCodePage = DEFAULT_CODE_PAGE;

  constructor(private readonly bytes: Uint8Array) {
    this.tokenizer = new RtfTokenizer(bytes);
    this.state = new GroupState({ kind: 'flow', flow: this.body });
  }

  read(): RtfContent {
    const tokenizer = this.tokenizer;
    for (let kind = tokenizer.next(); kind !== TokenKind.End; kind = tokenizer.next()) {
      if (this.skipDepth > 0) {
        if (kind === TokenKind.GroupStart) this.skipDepth += 1;
        else if (kind === TokenKind.GroupEnd) {
          this.skipDepth -= 1;
          if (this.skipDepth === 0) this.popGroup();
        }
        continue;
      }
      switch (kind) {
        case TokenKind.Text:
          this.onText(tokenizer.start, tokenizer.end);
          break;
        case TokenKind.HexByte:
          this.starPending = false;
          if (this.pendingSkip > 0) this.pendingSkip -= 1;
          else this.pushByte(tokenizer.byte);
          break;
        case TokenKind.Binary:
          // Binary data outside a skipped destination is never text (it counts as one fallback character).
          this.flushBytes();
          this.starPending = false;
          if (this.pendingSkip > 0) this.pendingSkip -= 1;
          break;
        case TokenKind.GroupStart:
          this.flushBytes();
          this.pendingSkip = 0;
          this.starPending = false;
          this.pushGroup();
          break;
        case TokenKind.GroupEnd:
          this.flushBytes();
          this.pendingSkip = 0;
          this.starPending = false;
          this.popGroup();
          break;
        case TokenKind.ControlSymbol:
          this.onSymbol(tokenizer.symbol);
          break;
        case TokenKind.ControlWord:
          this.onWord(tokenizer.word, tokenizer.parameter);
          break;
      }
    }
    this.finishDocument();
    return { body: this.body, notes: this.notes, furniture: this.furniture, metadata: this.metadata, warnings: this.warnings };
  }

  private finishDocument(): void {
    this.flushBytes();
    const unclosed = this.stack.length + this.flatDepth + Math.max(0, this.skipDepth - 1);
    if (unclosed > 0) {
      this.warnings.push(
        `the RTF document ends before ${unclosed} of its groups ${unclosed === 1 ? 'was' : 'were'} closed ` +
          '(a truncated or damaged file); the text read up to there is kept',
      );
    }
    this.skipDepth = 0;
    const destination = this.state.destination;
    if (destination.kind === 'flow') destination.flow.finish(this.paragraphInfo(this.state));
    while (this.stack.length > 0 || this.flatDepth > 0) this.popGroup();
    this.body.finish(this.paragraphInfo(this.state));
  }

  // Groups

  private pushGroup(): void {
    if (this.stack.length >= MAX_GROUP_DEPTH) {
      if (!this.flattenedSeen) {
        this.flattenedSeen = true;
        this.warnings.push(`groups nested deeper than ${MAX_GROUP_DEPTH} levels were read as part of their enclosing group`);
      }
      this.flatDepth += 1;
      return;
    }
    this.stack.push(this.state);
    const state = this.state.clone();
    // Each style sheet entry is a group of its own: give it an entry to fill.
    if (state.destination.kind === 'styles') {
      state.destination = { kind: 'style', entry: { number: 0, name: '', outlineLevel: null, paragraphStyle: true } };
    }
    this.state = state;
  }

  private popGroup(): void {
    if (this.flatDepth > 0) {
      this.flatDepth -= 1;
      return;
    }
    const closing = this.state;
    const outer = this.stack.pop();
    if (outer === undefined) {
      if (!this.unbalancedSeen) {
        this.unbalancedSeen = true;
        this.warnings.push('the RTF document closes more groups than it opens (unbalanced braces); the text after the extra "}" is kept');
      }
      return;
    }
    this.state = outer;
    const destination = closing.destination;
    if (destination !== outer.destination) {
      if (destination.kind === 'flow') destination.close?.(closing);
      else if (destination.kind === 'capture') destination.close(destination.text);
      else if (destination.kind === 'date') destination.close(destination.parts);
      else if (destination.kind === 'style' && destination.entry.paragraphStyle) this.styles.set(destination.entry.number, destination.entry);
    }
    // The document's group ends: its last paragraph (often without `\par`) ends with the formatting it had.
    if (this.stack.length === 0 && destination.kind === 'flow' && destination.flow === this.body) {
      this.body.finish(this.paragraphInfo(closing));
    }
  }

  private warnOnce(warning: string): void {
    if (!this.warnings.includes(warning)) this.warnings.push(warning);
  }

  private skipGroup(): void {
    this.flushBytes();
    // A skipped style sheet entry (`{\*\cs10 ...}`) is no paragraph style.
    const destination = this.state.destination;
    if (destination.kind === 'style' && this.stack[this.stack.length - 1]?.destination !== destination) {
      destination.entry.paragraphStyle = false;
    }
    this.skipDepth = 1;
  }

  // Text

  private onText(start: number, end: number): void {
    this.starPending = false;
    let from = start;
    if (this.pendingSkip > 0) {
      const skipped = Math.min(this.pendingSkip, end - start);
      this.pendingSkip -= skipped;
      from += skipped;
    }
    if (from >= end || !this.takesText()) return;
    const codePage = this.codePage();
    if (this.byteLength > 0 && this.byteCodePage !== codePage) this.flushBytes();
    this.byteCodePage = codePage;
    this.reserve(end - from);
    this.byteBuffer.set(this.bytes.subarray(from, end), this.byteLength);
    this.byteLength += end - from;
  }

  private pushByte(byte: number): void {
    this.starPending = false;
    if (!this.takesText()) return;
    const codePage = this.codePage();
    if (this.byteLength > 0 && this.byteCodePage !== codePage) this.flushBytes();
    this.byteCodePage = codePage;
    this.reserve(1);
    this.byteBuffer[this.byteLength] = byte;
    this.byteLength += 1;
  }

  private reserve(extra: number): void {
    if (this.byteLength + extra <= this.byteBuffer.length) return;
    const grown = new Uint8Array(Math.max(this.byteBuffer.length * 2, this.byteLength + extra));
    grown.set(this.byteBuffer.subarray(0, this.byteLength));
    this.byteBuffer = grown;
  }

  private flushBytes(): void {
    if (this.byteLength === 0) return;
    const text = decodeBytes(this.byteBuffer.subarray(0, this.byteLength), this.byteCodePage);
    this.byteLength = 0;
    this.deliver(text);
  }

  /** Whether text in the current state is kept anywhere (hidden text and dropped destinations are not). */
  private takesText(): boolean {
    if (this.state.hidden) return false;
    const kind = this.state.destination.kind;
    return kind === 'flow' || kind === 'capture' || kind === 'style';
  }

  private deliver(text: string): void {
    const state = this.state;
    if (state.hidden) return;
    const destination = state.destination;
    switch (destination.kind) {
      case 'flow': {
        // Raised or lowered digits (a power, a formula's count) in Unicode's characters for them, as Word shows them.
        const raised = state.position === null ? null : raisedCharacters(text, state.position);
        destination.flow.addText(raised ?? text, state.bold, state.italic, state.link);
        return;
      }
      case 'capture':
        if (destination.text.length < destination.limit) destination.text += text.slice(0, destination.limit - destination.text.length);
        return;
      case 'style':
        if (destination.entry.name.length < MAX_STYLE_NAME_CHARS) destination.entry.name += text;
        return;
      default:
        return;
    }
  }

  private codePage(): number {
    const state = this.state;
    if (state.doubleByte && state.doubleByteFont >= 0) {
      const doubleByte = this.fontCodePages.get(state.doubleByteFont);
      if (doubleByte !== undefined && doubleByte !== null) return doubleByte;
    }
    const font = state.font >= 0 ? state.font : this.defaultFont;
    return this.fontCodePages.get(font) ?? this.documentCodePage;
  }

  // Control symbols and words

  private onSymbol(symbol: string): void {
    if (symbol === '*') {
      this.flushBytes();
      this.starPending = true;
      return;
    }
    this.starPending = false;
    if (this.pendingSkip > 0) {
      this.pendingSkip -= 1;
      return;
    }
    switch (symbol) {
      case '\\':
      case '{':
      case '}':
        this.pushByte(symbol.charCodeAt(0));
        return;
      case '~':
        this.flushBytes();
        this.deliver('\u00a0');
        return;
      case '_':
        this.flushBytes();
        this.deliver('\u2011');
        return;
      default:
        // `\-` (optional hyphen), `\:` (index subentry), `\|` (formula): nothing to show.
        this.flushBytes();
    }
  }

  private onWord(word: string, parameter: number | null): void {
    this.flushBytes();
    const starred = this.starPending;
    this.starPending = false;
    if (this.pendingSkip > 0) {
      this.pendingSkip -= 1;
      return;
    }
    if (this.onDestination(word)) return;
    if (starred) {
      this.skipGroup();
      return;
    }
    const state = this.state;
    const destination = state.destination;
    const on = parameter === null || parameter !== 0;
    switch (word) {
      case 'u':
        this.onUnicode(parameter ?? 0);
        return;
      case 'uc':
        state.unicodeSkip = Math.max(0, Math.min(parameter ?? 1, 16));
        return;
      case 'ansi':
      case 'mac':
      case 'pc':
      case 'pca':
        this.documentCodePage = CODE_PAGE_BY_CHARACTER_SET.get(word) ?? DEFAULT_CODE_PAGE;
        return;
      case 'ansicpg':
        if (parameter !== null && isKnownCodePage(parameter)) this.documentCodePage = parameter;
        else if (parameter !== null) this.warnOnce(`the document's code page ${parameter} is not known; its 8-bit text was read as Windows-1252`);
        return;
      case 'deff':
        this.defaultFont = parameter ?? 0;
        return;
      case 'f':
        if (destination.kind === 'fonts') {
          destination.font = parameter ?? 0;
          if (!this.fontCodePages.has(destination.font)) this.fontCodePages.set(destination.font, null);
        } else {
          state.font = parameter ?? -1;
        }
        return;
      case 'fcharset':
        if (destination.kind === 'fonts') this.fontCodePages.set(destination.font, codePageOfCharset(parameter ?? 0));
        return;
      case 'cpg':
        if (destination.kind === 'fonts' && parameter !== null && isKnownCodePage(parameter)) {
          this.fontCodePages.set(destination.font, parameter);
        }
        return;
      case 'loch':
      case 'hich':
      case 'dbch':
        state.associatedMode = word;
        state.doubleByte = word === 'dbch';
        return;
      case 'af':
        if (state.associatedMode === 'dbch') state.doubleByteFont = parameter ?? -1;
        return;
      case 'plain':
        state.resetCharacter();
        return;
      case 'pard':
        state.resetParagraph();
        return;
      case 'b':
        state.bold = on;
        return;
      case 'i':
        state.italic = on;
        return;
      case 'super':
        state.position = 'super';
        return;
      case 'sub':
        state.position = 'sub';
        return;
      case 'nosupersub':
        state.position = null;
        return;
      case 'up':
      case 'dn':
        // `\up0` (or `\dn0`) sets the text back on the line.
        state.position = parameter === 0 ? null : word === 'up' ? 'super' : 'sub';
        return;
      case 'v':
      case 'deleted':
        state.hidden = on;
        return;
      case 's':
        if (destination.kind === 'style') destination.entry.number = parameter ?? 0;
        else state.style = parameter ?? 0;
        return;
      case 'cs':
      case 'ds':
      case 'ts':
        if (destination.kind === 'style') {
          destination.entry.number = parameter ?? 0;
          destination.entry.paragraphStyle = false;
        }
        return;
      case 'outlinelevel':
        if (destination.kind === 'style') destination.entry.outlineLevel = parameter;
        else state.outlineLevel = parameter;
        return;
      case 'intbl':
        state.inTable = true;
        return;
      case 'itap':
        state.inTable = (parameter ?? 1) > 0;
        return;
      case 'ls':
        state.listId = parameter ?? 0;
        return;
      case 'ilvl':
        state.listLevel = parameter;
        return;
      case 'pnlvl':
      case 'pnlvlblt':
      case 'pnlvlbody':
        if (destination.kind === 'drop' && destination.listFlow !== undefined) {
          destination.listFlow.setListLevel(word === 'pnlvl' ? Math.max(0, (parameter ?? 1) - 1) : 0);
        }
        return;
      case 'yr':
      case 'mo':
      case 'dy':
      case 'hr':
      case 'min':
      case 'sec':
        if (destination.kind === 'date' && parameter !== null) destination.parts[word] = parameter;
        return;
      case 'par':
      case 'sect':
        this.endParagraph();
        return;
      case 'page':
      case 'column':
        if (!state.inTable) this.endParagraph();
        return;
      case 'line':
      case 'lbr':
        if (destination.kind === 'flow' && !state.hidden) destination.flow.lineBreak();
        else this.deliver(' ');
        return;
      case 'cell':
        if (destination.kind === 'flow') destination.flow.endCell();
        return;
      case 'nestcell':
        if (destination.kind === 'flow') destination.flow.endNestedCell();
        return;
      case 'row':
        if (destination.kind === 'flow') destination.flow.endRow(this.rowDefinition);
        return;
      // A row's cells' edges and merges; only the body's and flows' own rows (a nested table's definition stands in
      // a dropped \nesttableprops group).
      case 'trowd':
        if (destination.kind === 'flow') this.rowDefinition = { left: 0, cells: [] };
        return;
      case 'trleft':
        if (destination.kind === 'flow') this.rowDefinition.left = parameter ?? 0;
        return;
      case 'clmgf':
      case 'clmrg':
        if (destination.kind === 'flow') this.pendingMerge.horizontalMerge = word === 'clmgf' ? 'first' : 'continue';
        return;
      case 'clvmgf':
      case 'clvmrg':
        if (destination.kind === 'flow') this.pendingMerge.verticalMerge = word === 'clvmgf' ? 'first' : 'continue';
        return;
      case 'cellx':
        if (destination.kind === 'flow' && this.rowDefinition.cells.length < MAX_ROW_CELLS) {
          this.rowDefinition.cells.push({ right: parameter ?? 0, ...this.pendingMerge });
          this.pendingMerge = { horizontalMerge: null, verticalMerge: null };
        }
        return;
      default: {
        const symbol = SYMBOL_WORDS.get(word);
        if (symbol !== undefined) this.deliver(symbol);
      }
    }
  }

  private endParagraph(): void {
    const destination = this.state.destination;
    if (destination.kind === 'flow') destination.flow.endParagraph(this.paragraphInfo(this.state));
    else this.deliver(' ');
  }

  private onUnicode(parameter: number): void {
    const code = parameter < 0 ? parameter + 65536 : parameter;
    let text: string;
    if (code >= 0 && code <= 0xffff) text = String.fromCharCode(code);
    else if (code > 0xffff && code <= 0x10ffff) text = String.fromCodePoint(code);
    else text = '\ufffd';
    this.deliver(text);
    this.pendingSkip = this.state.unicodeSkip;
  }

  /** Handles a word that starts a destination; false when the word is not one. */
  private onDestination(word: string): boolean {
    const state = this.state;
    const destination = state.destination;
    if (SKIPPED_DESTINATIONS.has(word)) {
      this.skipGroup();
      return true;
    }
    const infoKey = INFO_TEXT_FIELDS.get(word);
    if (infoKey !== undefined) {
      state.destination = {
        kind: 'capture',
        text: '',
        limit: MAX_CAPTURE_CHARS,
        close: (text) => {
          const value = text.replace(/\s+/g, ' ').trim();
          if (value !== '') this.metadata[infoKey] = value;
        },
      };
      return true;
    }
    const dateKey = INFO_DATE_FIELDS.get(word);
    if (dateKey !== undefined) {
      state.destination = {
        kind: 'date',
        parts: {},
        close: (parts) => {
          const date = isoDate(parts);
          if (date !== null) this.metadata[dateKey] = date;
        },
      };
      return true;
    }
    const furnitureKind = FURNITURE_DESTINATIONS.get(word);
    if (furnitureKind !== undefined) {
      const flow = new Flow(false);
      state.resetParagraph();
      state.link = null;
      state.field = null;
      state.destination = {
        kind: 'flow',
        flow,
        close: (closing) => {
          flow.finish(this.paragraphInfo(closing));
          this.furniture.push({ kind: furnitureKind, flow });
        },
      };
      return true;
    }
    switch (word) {
      case 'fonttbl':
        state.destination = { kind: 'fonts', font: 0 };
        return true;
      case 'stylesheet':
        state.destination = { kind: 'styles' };
        return true;
      case 'info':
      case 'upr':
      case 'shp':
        state.destination = { kind: 'drop', resume: word === 'info' ? null : destination };
        return true;
      case 'ud':
      case 'shptxt':
        if (destination.kind === 'drop' && destination.resume !== null) state.destination = destination.resume;
        return true;
      case 'shpinst':
        // The shape's instructions: properties (`\sp`) are skipped, its text box (`\shptxt`) is read.
        return true;
      case 'field':
        state.field = { link: null };
        return true;
      case 'fldrslt':
        // The field's visible result; a HYPERLINK field's URL becomes the link of its text.
        state.link = state.field?.link ?? null;
        return true;
      case 'fldinst': {
        const field = state.field ?? { link: null };
        state.field = field;
        state.destination = {
          kind: 'capture',
          text: '',
          limit: MAX_CAPTURE_CHARS,
          close: (text) => {
            field.link = hyperlinkTarget(text.trim());
          },
        };
        return true;
      }
      case 'footnote':
        this.startFootnote();
        return true;
      case 'pntext':
      case 'listtext': {
        if (destination.kind !== 'flow') {
          this.skipGroup();
          return true;
        }
        const flow = destination.flow;
        state.destination = { kind: 'capture', text: '', limit: MAX_MARKER_CHARS, close: (text) => flow.setListMarker(text) };
        return true;
      }
      case 'pn':
        state.destination = destination.kind === 'flow' ? { kind: 'drop', resume: null, listFlow: destination.flow } : { kind: 'drop', resume: null };
        return true;
      default:
        return false;
    }
  }

  /** `\footnote`: the reference goes where the note is anchored; the note's text gets a flow of its own. */
  private startFootnote(): void {
    const state = this.state;
    const destination = state.destination;
    if (destination.kind !== 'flow') {
      this.skipGroup();
      return;
    }
    const number = this.notes.length + 1;
    const flow = new Flow(false);
    this.notes.push({ number, flow });
    const reference = destination.flow.addMarkdown(`[^${number}]`);
    state.resetParagraph();
    state.link = null;
    state.field = null;
    state.destination = {
      kind: 'flow',
      flow,
      close: (closing) => {
        flow.finish(this.paragraphInfo(closing));
        // A note without text (a pasted fragment's empty footnote) gets no reference either.
        if (flow.blocks.length === 0) reference.text = '';
      },
    };
  }

  private paragraphInfo(state: GroupState): ParagraphInfo {
    if (state.destination.kind !== 'flow') return BODY_PARAGRAPH;
    return {
      headingLevel: this.headingLevel(state),
      inTable: state.inTable,
      listLevel: state.listId > 0 ? Math.max(0, state.listLevel ?? 0) : null,
    };
  }

  /**
   * A paragraph is a heading when its outline level (`\outlinelevelN`, 0-5; 9 is body text) or its style says so:
   * "heading N", "Title" (1), "Subtitle" (2), or the style's own outline level.
   */
  private headingLevel(state: GroupState): number | null {
    if (state.outlineLevel !== null) return state.outlineLevel >= 0 && state.outlineLevel <= 5 ? state.outlineLevel + 1 : null;
    const style = this.styles.get(state.style);
    if (style === undefined) return null;
    const name = style.name.replace(/;\s*$/, '').trim().toLowerCase();
    const heading = /^heading\s*(\d)$/.exec(name);
    if (heading) return Math.min(Math.max(Number(heading[1]), 1), 6);
    if (name === 'title') return 1;
    if (name === 'subtitle') return 2;
    const level = style.outlineLevel;
    return level !== null && level >= 0 && level <= 5 ? level + 1 : null;
  }

}

function isoDate(parts: Record<string, number>): string | null {
  const { yr, mo = 1, dy = 1, hr = 0, min = 0, sec = 0 } = parts;
  if (yr === undefined || yr < 1000 || yr > 9999 || mo < 1 || mo > 12 || dy < 1 || dy > 31) return null;
  const pad = (value: number) => String(Math.max(0, Math.min(value, 59))).padStart(2, '0');
  // RTF dates are local time without a zone: no `Z`.
  return `${yr}-${pad(mo)}-${pad(dy)}T${pad(hr)}:${pad(min)}:${pad(sec)}`;
}
