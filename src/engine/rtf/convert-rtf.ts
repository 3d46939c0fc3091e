/**
 * The RTF converter (.rtf): a reader of its own (tokenizer.ts, reader.ts) rather than an RTF-to-HTML package, so
 * that damaged and hostile files degrade instead of crashing, and code pages are decoded right.
 *
 * Output: one page (RTF has pages only when printed), blocks with `source: 'rtf'` in reading order: page headers
 * first and footers last as furniture (`page_header`/`page_footer`, `page_number` when one is only a page number;
 * identical ones once), then the body (flow.ts: headings, paragraphs with bold/italic emphasis and links, lists,
 * GFM tables), then footnotes and endnotes as GFM footnotes: `[^N]` where the note is anchored, one `text` block
 * labelled `footnote` with `[^N]: text` per note at the end. Metadata from `\info`: title, author, subject,
 * keywords, description, lastModifiedBy, created, modified.
 *
 * Left out: pictures, embedded objects, hidden and deleted text, field instructions (their results are kept),
 * bookmarks, index entries, comments.
 *
 * A file that does not start with `{\rtf` is CORRUPT_DOCUMENT, naming what it looks like. A truncated or
 * unbalanced file keeps the text read, with a warning; groups nested deeper than 256 levels are read flat, with a
 * warning (reader.ts), so no nesting exhausts the stack or the memory. A document without text is not an error (as
 * for Word documents): no blocks and the warning "the document has no text".
 */
import { EngineError } from '../engine-error.js';
import type { ConvertInput, Converter, DocumentModel, MetadataValue, ModelBlock } from '../model.js';
import { sniffedOf, TYPE_DESCRIPTIONS } from '../bytes/sniff.js';
import { decodeText, textHead } from '../bytes/text.js';
import type { Flow } from './flow.js';
import { cleanText } from './markdown.js';
import { escapeRunText } from '../markdown-text.js';
import { readRtf } from './reader.js';

export const NO_TEXT_WARNING = 'the document has no text';

const SOURCE = 'rtf';

export const convertRtf: Converter = async (input) => {
  const content = readRtf(rtfBytes(input));

  const headers = furnitureBlocks(content.furniture.filter((item) => item.kind === 'header').map((item) => item.flow), 'page_header');
  const footers = furnitureBlocks(content.furniture.filter((item) => item.kind === 'footer').map((item) => item.flow), 'page_footer');
  const body: ModelBlock[] = content.body.blocks.map((block) => ({ ...block, bbox: null, source: SOURCE }));
  const notes: ModelBlock[] = content.notes.flatMap(({ number, flow }) => {
    const text = flow.blocks
      .flatMap((block) => block.markdown.split('\n'))
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .join(' ');
    return text === '' ? [] : [{ type: 'text' as const, label: 'footnote', markdown: `[^${number}]: ${text}`, bbox: null, source: SOURCE }];
  });

  const warnings = [...content.warnings];
  if (body.length === 0 && notes.length === 0) warnings.push(NO_TEXT_WARNING);
  const metadata: Record<string, MetadataValue> = { ...content.metadata };
  const model: DocumentModel = {
    pages: [{ pageNumber: 1, width: null, height: null, status: 'ok', blocks: [...headers, ...body, ...notes, ...footers] }],
    metadata,
  };
  if (warnings.length > 0) model.warnings = warnings;
  return model;
};

/**
 * The document's bytes when they are RTF: `{\rtf` after an optional byte order mark and white space. RTF saved as
 * UTF-16 (rare, but the engine's sniffer accepts it) is turned back into the 8-bit text RTF is defined on, with
 * characters beyond Latin-1 as `\uN?`. Anything else is CORRUPT_DOCUMENT, saying what the file looks like.
 */
function rtfBytes(input: ConvertInput): Uint8Array {
  const { bytes } = input;
  let index = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (index < bytes.length && index < 1024 && isWhiteSpace(bytes[index] as number)) index += 1;
  if (String.fromCharCode(...bytes.subarray(index, index + RTF_SIGNATURE.length)) === RTF_SIGNATURE) return bytes;
  if (textHead(bytes, 1024).trimStart().startsWith(RTF_SIGNATURE)) return eightBitRtf(decodeText(bytes).text);
  const { real } = sniffedOf(input);
  const looksLike =
    real.kind === 'document' ? TYPE_DESCRIPTIONS[real.type] : real.kind === 'other' ? real.looksLike : real.what;
  throw new EngineError('CORRUPT_DOCUMENT', `not an RTF document: the file does not start with "{\\rtf" (it looks like ${looksLike})`);
}

const RTF_SIGNATURE = '{\\rtf';

function isWhiteSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

function eightBitRtf(text: string): Uint8Array {
  const escape = (code: number) => `\\u${code > 0x7fff ? code - 0x10000 : code}?`;
  let length = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    length += code <= 0xff ? 1 : escape(code).length;
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code <= 0xff) {
      bytes[offset++] = code;
      continue;
    }
    for (const character of escape(code)) bytes[offset++] = character.charCodeAt(0);
  }
  return bytes;
}

const PAGE_NUMBER = /^(?:page\s+)?\d+(?:\s*(?:of|\/)\s*\d+)?$/i;

/** Header or footer flows as furniture blocks, each distinct text once. */
function furnitureBlocks(flows: readonly Flow[], type: 'page_header' | 'page_footer'): ModelBlock[] {
  const seen = new Set<string>();
  const blocks: ModelBlock[] = [];
  for (const flow of flows) {
    const markdown = flow.blocks.map((block) => block.markdown).join('\n').trim();
    if (markdown === '' || seen.has(markdown)) continue;
    seen.add(markdown);
    const plain = cleanText(markdown).replace(/\\(.)/g, '$1').trim();
    blocks.push({
      type: PAGE_NUMBER.test(plain) ? 'page_number' : type,
      label: null,
      markdown: PAGE_NUMBER.test(plain) ? escapeRunText(plain) : markdown,
      bbox: null,
      source: SOURCE,
      furniture: true,
    });
  }
  return blocks;
}
