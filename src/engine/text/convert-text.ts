/**
 * Plain text → the document model: one page whose blocks are the paragraphs (runs of lines between blank lines),
 * each line kept as a line of its paragraph, written so that Markdown reads it as the text itself (emphasis,
 * links and HTML characters escaped, and a line start that would make a heading, quote or list).
 *
 * The router sends here text whose name claims another format and which is no table (route.ts): prose named
 * `.odt` becomes paragraphs, never a one-column table. Encoding: detected from the bytes (bytes/text.ts); a
 * guessed legacy encoding is reported as a warning. Text without a visible character gives no blocks and the
 * warning every converter gives.
 */
import { decodeText, decodingWarnings } from '../bytes/text.js';
import type { Converter, DocumentModel, ModelBlock } from '../model.js';
import { NO_TEXT_WARNING } from '../legacy/markdown.js';
import { cleanText } from '../rtf/markdown.js';
import { lineMarkdown } from '../sheets/markdown-text.js';

const SOURCE = 'text';

export const convertText: Converter = async (input) => {
  const decoded = decodeText(input.bytes);
  const blocks = paragraphs(decoded.text).map(
    (lines): ModelBlock => ({ type: 'text', label: null, markdown: lines.map(lineMarkdown).join('\n'), bbox: null, source: SOURCE }),
  );
  const warnings = decodingWarnings(decoded);
  if (blocks.length === 0) warnings.push(NO_TEXT_WARNING);
  const model: DocumentModel = { pages: [{ pageNumber: 1, width: null, height: null, status: 'ok', blocks }], metadata: {} };
  if (warnings.length > 0) model.warnings = warnings;
  return model;
};

/** The paragraphs of a text, each as its lines (control characters dropped); blank lines separate them. */
function paragraphs(text: string): string[][] {
  const found: string[][] = [[]];
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = cleanText(raw);
    if (line.trim() === '') found.push([]);
    else found[found.length - 1]?.push(line);
  }
  return found.filter((lines) => lines.length > 0);
}
