/**
 * A range of a Word 97-2003 document's characters read as paragraphs of formatted runs. Word's special characters
 * ([MS-DOC] 2.8.25 and the field characters) are resolved here:
 *
 * - 0x0D ends a paragraph, 0x07 ends a table cell (or, with the TTP property, a row), 0x0C (page or section break)
 *   starts a new page, 0x0B is a line break, 0x0E (column break) ends a paragraph;
 * - fields (0x13 begin, instruction, 0x14 separator, result, 0x15 end; nested) keep their result and drop their
 *   instruction; a HYPERLINK field's result becomes a link;
 * - 0x02 (auto-numbered footnote or endnote reference) becomes the reference the caller names; a drawing (0x08)
 *   that is a text box gives the text box's paragraphs after its paragraph (after the table, when it is in one);
 *   other objects (0x01 pictures, drawings), annotation marks (0x05) and other control characters are dropped;
 * - hidden text and text deleted with track changes are left out.
 */
import type { Run } from './markdown.js';
import type { CharacterProperties, ParagraphProperties, RunTable } from './word-properties.js';
import type { WordText } from './word-text.js';

export interface StoryParagraph {
  runs: Run[];
  properties: ParagraphProperties;
  /** '\r' paragraph mark, '\x07' cell or row mark, 'page' a page/section break. */
  end: '\r' | '\x07' | 'page';
}

export interface StorySources {
  text: WordText;
  paragraphs: RunTable<ParagraphProperties>;
  characters: RunTable<CharacterProperties>;
  /** The Markdown for a note reference character at a CP (undefined when there is none). */
  noteReference?: (cp: number) => string | undefined;
  /** The paragraphs of the text box anchored by the drawing character (0x08) at a CP, if it has one. */
  textBoxAt?: (cp: number) => StoryParagraph[] | undefined;
}

/** Fields nested deeper than this are read as if flat (their characters still count). */
const MAX_FIELD_DEPTH = 64;
const MAX_INSTRUCTION_LENGTH = 2048;

interface OpenField {
  instruction: string;
  inResult: boolean;
  /** For a HYPERLINK field showing its result: where the result starts. */
  link?: { href: string; paragraph: number; run: number };
}

/** Characters handled one at a time; every other character is read in spans of same-formatted text. */
// eslint-disable-next-line no-control-regex
const SPECIAL = /[\u0000-\u001f\u007f\u00a0]/g;

export function readStory(sources: StorySources, cpStart: number, cpEnd: number): StoryParagraph[] {
  const { text, paragraphs, characters } = sources;
  const out: StoryParagraph[] = [];
  let runs: Run[] = [];
  const fields: OpenField[] = [];
  /** Open fields still in their instruction: while any is, nothing shows. */
  let inInstruction = 0;
  let current: Run | null = null;
  let currentProperties: CharacterProperties | null = null;
  let textBoxes: StoryParagraph[] = [];

  const endParagraph = (cp: number, end: StoryParagraph['end']) => {
    const properties = paragraphs.find(text.fcOf(cp));
    out.push({ runs, properties, end });
    runs = [];
    current = null;
    if (textBoxes.length > 0 && properties.depth === 0 && !properties.inTable) {
      out.push(...textBoxes);
      textBoxes = [];
    }
  };
  const append = (chars: string, properties: CharacterProperties) => {
    if (current === null || currentProperties !== properties) {
      current = { text: '', bold: properties.bold, italic: properties.italic, strike: properties.strike };
      currentProperties = properties;
      runs.push(current);
    }
    current.text += chars;
  };
  /** Where a span of ordinary characters from `cp` ends: a special character, the end of its piece or its run. */
  const spanEnd = (cp: number, limit: number): number => {
    SPECIAL.lastIndex = cp;
    const special = SPECIAL.exec(text.text);
    let end = special === null ? limit : Math.min(special.index, limit);
    const piece = text.pieceAt(cp);
    if (piece === undefined) return cp + 1;
    end = Math.min(end, piece.cpEnd);
    const fc = text.fcOf(cp);
    const width = piece.compressed ? 1 : 2;
    return Math.max(cp + 1, Math.min(end, cp + Math.ceil((characters.endOf(fc) - fc) / width)));
  };

  const limit = Math.min(cpEnd, text.text.length);
  for (let cp = cpStart; cp < limit; cp += 1) {
    const code = text.text.charCodeAt(cp);
    if (code === 0x13) {
      if (fields.length < MAX_FIELD_DEPTH) {
        fields.push({ instruction: '', inResult: false });
        inInstruction += 1;
      }
      continue;
    }
    if (code === 0x14) {
      const field = fields.at(-1);
      if (field !== undefined && !field.inResult) {
        field.inResult = true;
        inInstruction -= 1;
        const href = hyperlinkTarget(field.instruction);
        if (href !== undefined && inInstruction === 0) field.link = { href, paragraph: out.length, run: runs.length };
        current = null;
      }
      continue;
    }
    if (code === 0x15) {
      const field = fields.pop();
      if (field !== undefined && !field.inResult) inInstruction -= 1;
      // A link is kept only when its result stayed inside one paragraph.
      if (field?.link !== undefined && field.link.paragraph === out.length) {
        for (const run of runs.slice(field.link.run)) run.href = field.link.href;
      }
      current = null;
      continue;
    }
    const ordinary = code >= 0x20 && code !== 0x7f && code !== 0xa0;
    const end = ordinary ? spanEnd(cp, limit) : cp + 1;
    const field = fields.at(-1);
    if (field !== undefined && !field.inResult) {
      if (field.instruction.length < MAX_INSTRUCTION_LENGTH) field.instruction += text.text.slice(cp, end);
      cp = end - 1;
      continue;
    }
    if (inInstruction > 0) {
      cp = end - 1;
      continue;
    }
    if (code === 0x0d || code === 0x07 || code === 0x0e) {
      endParagraph(cp, code === 0x07 ? '\x07' : '\r');
      continue;
    }
    if (code === 0x0c) {
      if (runs.length > 0) endParagraph(cp, '\r');
      out.push({ runs: [], properties: paragraphs.find(-1), end: 'page' });
      continue;
    }
    const properties = characters.find(text.fcOf(cp));
    if (properties.dropped) {
      cp = end - 1;
      continue;
    }
    if (ordinary) {
      append(text.text.slice(cp, end), properties);
      cp = end - 1;
      continue;
    }
    if (code === 0x02 && sources.noteReference !== undefined) {
      const reference = sources.noteReference(cp);
      if (reference !== undefined) {
        runs.push({ text: reference, raw: true });
        current = null;
      }
    } else if (code === 0x08 && sources.textBoxAt !== undefined) {
      textBoxes.push(...(sources.textBoxAt(cp) ?? []));
    } else if (code === 0x0b) append('\n', properties);
    else if (code === 0x09 || code === 0xa0) append(' ', properties);
    else if (code === 0x1e) append('-', properties);
    // Other control characters (0x01 pictures, 0x08 drawings, 0x05 annotation marks, 0x1F optional hyphens...) go.
  }
  if (runs.length > 0) endParagraph(limit - 1, '\r');
  out.push(...textBoxes);
  return out;
}

/** The URL of a `HYPERLINK "url"` field instruction (not of `HYPERLINK \l "bookmark"`, a link inside the document). */
function hyperlinkTarget(instruction: string): string | undefined {
  const match = /^\s*HYPERLINK\s+(\\[a-z]\s+)?"([^"]+)"/i.exec(instruction) ?? /^\s*HYPERLINK\s+(\\[a-z]\s+)?(\S+)/i.exec(instruction);
  if (match === null || match[1] !== undefined) return undefined;
  const target = (match[2] ?? '').trim();
  return /^[a-z][a-z0-9+.-]*:/i.test(target) ? target : undefined;
}
