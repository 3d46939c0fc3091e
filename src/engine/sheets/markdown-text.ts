/**
 * Cell and comment text outside a table: a Markdown paragraph or list item that reads as the text itself. Line
 * breaks become spaces (a title or a comment is one line), characters Markdown would take for emphasis, code,
 * links or HTML are backslash-escaped, and so is a line start that would make a heading, quote or list. A cell
 * whose text is a whole link (cell-text.ts writes `[label](url)`) is kept as that link.
 */

const WHOLE_LINK = /^\[(?:[^\]\\]|\\.)*\]\([^\s()]+\)$/;

/** Text for inside a line (after a list marker or a label). */
export function inlineMarkdown(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (WHOLE_LINK.test(flat)) return flat;
  return flat
    .replace(/[\\`*[\]<>]/g, (character) => `\\${character}`)
    // An underscore inside a word (snake_case, a URL) cannot start or end emphasis.
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\_');
}

/** Text that is a line of its own (a paragraph). */
export function lineMarkdown(text: string): string {
  const inline = inlineMarkdown(text);
  return inline
    .replace(/^(#{1,6}(?=\s|$)|[-+=](?=\s|$)|>)/, '\\$1')
    .replace(/^(\d{1,9})([.)])(?=\s|$)/, '$1\\$2');
}
