/**
 * Plain text written into Markdown, escaped only where a reader would take it for syntax, one policy for every
 * format: a backslash escape is noise to the search index and the chunks a RAG corpus is built from
 * (`max\_retry\_count`, `\[12\]`, `\-5%`), so what cannot be syntax is left as written. The PDF path, which knows
 * each paragraph whole, escapes stars and underscores only where two could pair (pdf/markdown.ts); the text here is
 * a run or a text node whose neighbours are not known, so those are escaped wherever they could open or close
 * emphasis.
 */

/** A pair of brackets around text, and the character after it. */
const BRACKETED = /\[([^[\]\\^\n][^[\]\\\n]*)\](?=(.?))/g;

const SYNTAX = /[\\`*_[\]<]/;

/**
 * `text` with its inline syntax escaped: backslashes, backticks and stars always; an underscore at a word's edge
 * (`snake_case` is literal); `<` opening a tag or a comment, as `&lt;`; brackets, except a pair that cannot make a link or a
 * footnote (a citation `[12]`, `[sic]`: not followed by `(`, `:` or `[`, not opening `[^`, not ending the text,
 * where the next text could go on with `(`).
 */
export function escapeRunText(text: string): string {
  if (!SYNTAX.test(text)) return text;
  const plainPairs = new Set<number>();
  if (text.includes('[')) {
    for (const match of text.matchAll(BRACKETED)) {
      const next = match[2] ?? '';
      if (next !== '' && next !== '(' && next !== ':' && next !== '[') {
        plainPairs.add(match.index);
        plainPairs.add(match.index + match[0].length - 1);
      }
    }
  }
  let out = '';
  let copied = 0;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3c) {
      if (opensMarkup(text, i)) {
        out += `${text.slice(copied, i)}${LESS_THAN}`;
        copied = i + 1;
        escaped = true;
      }
      continue;
    }
    let escape = false;
    if (c === 0x5c || c === 0x60 || c === 0x2a) escape = true;
    else if (c === 0x5f) escape = !(isWordCharacter(text, i - 1) && isWordCharacter(text, i + 1));
    else if (c === 0x5b || c === 0x5d) escape = !plainPairs.has(i);
    if (escape) {
      out += `${text.slice(copied, i)}\\`;
      copied = i;
      escaped = true;
    }
  }
  return escaped ? out + text.slice(copied) : text;
}

/**
 * A `<` written as a character reference where it would open markup (`<div>`, `</p>`, `<!--`, `<?`, `<Table 2>`),
 * not backslash-escaped: docmill's Markdown carries HTML (tables with spans, `<br>`), and what reads that HTML out
 * of it (an HTML parser over the Markdown, a sanitizer, a table extractor) knows no backslash escape. To it `\<Table`
 * opens a tag that runs to the next `>`, swallowing the text and any table after it. `&lt;` is `<` to both readers.
 */
export const LESS_THAN = '&lt;';

/** True when the `<` at `i` could open an HTML tag, end tag, comment or processing instruction. */
export function opensMarkup(text: string, i: number): boolean {
  return /[A-Za-z/!?]/.test(text.charAt(i + 1));
}

const WORD_CHARACTER = /[\p{L}\p{N}]/u;

function isWordCharacter(text: string, i: number): boolean {
  return i >= 0 && i < text.length && WORD_CHARACTER.test(text.charAt(i));
}

/**
 * `line` with what would make it Markdown structure escaped at its start: an ATX heading (`# `), a quote (`>`), a
 * list marker (`- `, `+ `, `1. `, `1) `), a code fence, a rule or a setext underline (a line of `-` or `=` alone).
 * A hyphen, a plus or an equals sign opening other text (`-5%`, `+3 dB`, `--fast`, `=SUM(A1)`) is no syntax and
 * stays as written.
 */
export function escapeLineStart(line: string): string {
  // Indented a little, a line starts the same structure.
  const first = line.charCodeAt(0);
  if (first !== 0x20 && first !== 0x09) return structureEscaped(line);
  const indent = /^[ \t]*/.exec(line)![0];
  return indent + structureEscaped(line.slice(indent.length));
}

/** The characters a line of Markdown structure can start with: `#`, `>`, `-`, `+`, a digit, `~`, a backtick, `=`. */
const STRUCTURE_START = /^[#>\-+\d~`=]/;

function structureEscaped(line: string): string {
  // Most lines start with none of them: one test instead of the six patterns below (the PDF path escapes every
  // paragraph and line it writes).
  if (!STRUCTURE_START.test(line)) return line;
  return line
    .replace(/^(#{1,6})(?=\s|$)/, '\\$1')
    .replace(/^>/, '\\>')
    .replace(/^([-+])(?=\s|$)/, '\\$1')
    .replace(/^(\d{1,9})([.)])(?=\s|$)/, '$1\\$2')
    .replace(/^(~~~|```)/, '\\$1')
    .replace(/^([-=])(?=[-=\s]*$)/, '\\$1');
}

/** Plain text of one or more lines as Markdown paragraph text: each line's inline syntax and start escaped. */
export function escapeTextLines(text: string): string {
  return text
    .split('\n')
    .map((line) => escapeLineStart(escapeRunText(line)))
    .join('\n');
}
