/**
 * Quoted lines of a plain-text e-mail as it is printed (`> ` before each line of the message replied to, `> > ` a
 * level deeper): a Markdown block quote, nested as deep as its marks, each quoted paragraph's lines joined as the
 * other paragraphs' are, a bare `>` line parting them. Read as prose, the marks ran into the text (`wrote: > Dana,
 * could you … The fire > service`). Pure.
 */
import { escapeMarkdownText } from './markdown.js';
import type { TextLine } from './types.js';

/** A line's quotation marks: `>` each, followed by a space, another `>` or the line's end. */
const MARKS = /^\s*((?:>(?=\s|>|$)\s?)+)(.*)$/u;

/** How deep a line is quoted (0: not). */
export function quoteDepth(text: string): number {
  const marks = MARKS.exec(text)?.[1];
  return marks ? (marks.match(/>/g)?.length ?? 0) : 0;
}

/** Which lines are quoted: two such lines together at least (a lone `> 5` is no quotation). */
export function quotedLines(lines: readonly TextLine[]): boolean[] {
  const depth = lines.map((line) => (line.zone ? 0 : quoteDepth(line.text)));
  return depth.map((d, i) => d > 0 && ((depth[i - 1] ?? 0) > 0 || (depth[i + 1] ?? 0) > 0));
}

/** The Markdown and the text of a run of quoted lines. */
export function quoteMarkdown(lines: readonly TextLine[]): { markdown: string; text: string } {
  const paragraphs: { depth: number; words: string[] }[] = [];
  let open: { depth: number; words: string[] } | undefined;
  for (const line of lines) {
    const depth = quoteDepth(line.text);
    const content = (MARKS.exec(line.text)?.[2] ?? line.text).trim();
    if (content === '') {
      open = undefined;
      continue;
    }
    if (!open || open.depth !== depth) paragraphs.push((open = { depth, words: [] }));
    open.words.push(content);
  }
  const markdown = paragraphs.map((paragraph, i) => {
    const lead = '> '.repeat(paragraph.depth);
    const before = paragraphs[i - 1];
    // A blank quoted line between two paragraphs, as deep as the shallower of them.
    const gap = before ? `${'>'.repeat(Math.min(before.depth, paragraph.depth))}\n` : '';
    return `${gap}${lead}${escapeMarkdownText(paragraph.words.join(' '))}`;
  });
  return { markdown: markdown.join('\n'), text: paragraphs.map((paragraph) => paragraph.words.join(' ')).join('\n\n') };
}
