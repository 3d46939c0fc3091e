/**
 * Word comments (word/comments.xml): each comment's anchor is marked in the text as `[comment N]`, where the
 * author placed it (mammoth writes the comment reference, the end of the commented range, as a link, which
 * `markCommentReferences` replaces), and the comments are listed at the end of the document in a marked section,
 * numbered in order of appearance, with their author:
 *
 *     **Comments:**
 *     - [comment 1] (Ann Example): Check this figure.
 *
 * mammoth knows only the author's initials, so author and text are read from the comments part here. A comment
 * no reference in the body points at is still listed, after the others, without a number.
 */
import type { DomDocument } from '../html/dom.js';
import { headerFooterText } from './package.js';
import { escapeRunText } from '../markdown-text.js';

export interface WordComment {
  id: string;
  author: string;
  text: string;
}

/** The comments of a comments part, in part order. */
export function readComments(commentsXml: string | undefined): WordComment[] {
  if (commentsXml === undefined) return [];
  const comments: WordComment[] = [];
  for (const match of commentsXml.matchAll(/<(?:\w+:)?comment\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?comment>)/g)) {
    const attributes = match[1] ?? '';
    const id = /(?:^|\s)(?:\w+:)?id="([^"]*)"/.exec(attributes)?.[1];
    if (id === undefined) continue;
    const author = decodeEntities(/(?:^|\s)(?:\w+:)?author="([^"]*)"/.exec(attributes)?.[1] ?? '').trim();
    const text = headerFooterText(`<body>${match[2] ?? ''}</body>`).replace(/\s+/g, ' ').trim();
    comments.push({ id, author, text });
  }
  return comments;
}

/**
 * Replaces mammoth's comment reference links by `[comment N]` and removes its comment list; returns the comment
 * ids in the order their numbers were given.
 */
export function markCommentReferences(document: DomDocument): string[] {
  const order: string[] = [];
  for (const anchor of [...document.querySelectorAll('a[id^="comment-ref-"]')]) {
    const id = /^#comment-(.+)$/.exec(anchor.getAttribute('href') ?? '')?.[1];
    if (id === undefined) continue;
    let number = order.indexOf(id) + 1;
    if (number === 0) number = order.push(id);
    const marker = document.createTextNode(`[comment ${number}]`);
    const parent = anchor.parentElement;
    if (parent !== null && parent.tagName === 'SUP' && parent.children.length === 1) parent.replaceWith(marker);
    else anchor.replaceWith(marker);
  }
  for (const term of [...document.querySelectorAll('dt[id^="comment-"]')]) {
    const list = term.closest('dl');
    if (list !== null) list.remove();
  }
  return order;
}

/** Markdown escapes the brackets of the markers; they are meant as written. */
export function unescapeCommentMarkers(markdown: string): string {
  return markdown.replace(/\\\[comment (\d+)\\\]/g, '[comment $1]');
}

/** The marked section listing the comments, or null when there are none. */
export function commentsSection(comments: readonly WordComment[], order: readonly string[]): string | null {
  const byId = new Map(comments.map((comment) => [comment.id, comment]));
  const lines: string[] = [];
  const line = (label: string, comment: WordComment) => {
    const author = comment.author === '' ? '' : ` (${escapeRunText(comment.author)})`;
    lines.push(`- ${label}${author}: ${escapeRunText(comment.text)}`);
  };
  order.forEach((id, index) => {
    const comment = byId.get(id);
    if (comment !== undefined) line(`[comment ${index + 1}]`, comment);
  });
  for (const comment of comments) if (!order.includes(comment.id) && comment.text !== '') line('unanchored', comment);
  return lines.length === 0 ? null : ['**Comments:**', ...lines].join('\n');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|[a-z]{2,4});/g, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name] ?? whole;
  });
}
