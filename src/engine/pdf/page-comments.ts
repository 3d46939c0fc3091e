/**
 * A PDF page's comments: the notes its reviewers leave on it (sticky notes, and the text of highlights, underlines,
 * strike-outs, shapes and stamps), which are no part of the page's text. As the slide path lists a slide's, they
 * close the page under `**Comments:**`, each with its author when the PDF names one and the kind of mark when it is
 * not a note; outside the page's flow (document-layout.ts places them where no paragraph reads on over them):
 *
 *     **Comments:**
 *     - (Alex): Check the north figures against the ledger.
 *     - (Sam, highlight): Is this right?
 *
 * Links, form widgets, popups (the window showing a note's text again) and free-text annotations (text typed onto
 * the page, read where it stands: form-values.ts) are none. Pure.
 */
import type { NativeAnnotation } from './form-marks.js';
import { escapeRunText } from '../markdown-text.js';
import type { ProtoBlock } from './types.js';

/** One comment of a page. */
export interface PageComment {
  /** The annotation's subtype, lower case (`text` for a sticky note). */
  kind: string;
  author?: string;
  text: string;
}

/** Annotations that carry a reviewer's comment in their contents. */
const COMMENT_KINDS = new Set(['text', 'highlight', 'underline', 'strikeout', 'squiggly', 'square', 'circle', 'line', 'polygon', 'polyline', 'ink', 'stamp', 'caret', 'fileattachment', 'sound']);

/** The model's label of the block listing a page's comments. */
export const COMMENTS_LABEL = 'comments';

/** The comments among a page's annotations, in the page's order of them. */
export function commentsOf(annotations: readonly NativeAnnotation[] | undefined): PageComment[] {
  const comments: PageComment[] = [];
  for (const annotation of annotations ?? []) {
    const text = annotation.contents?.replace(/\s+/gu, ' ').trim();
    if (!text || !COMMENT_KINDS.has(annotation.subtype)) continue;
    const comment: PageComment = { kind: annotation.subtype, text };
    const author = annotation.title?.trim();
    if (author) comment.author = author;
    comments.push(comment);
  }
  return comments;
}

/** The block listing a page's comments, or undefined for none. */
export function commentsBlock(comments: readonly PageComment[]): ProtoBlock | undefined {
  if (comments.length === 0) return undefined;
  const lines = comments.map((comment) => {
    const said = [comment.author, comment.kind === 'text' ? undefined : comment.kind].filter((part) => part !== undefined);
    return `- ${said.length > 0 ? `(${escapeRunText(said.join(', '))}): ` : ''}${escapeRunText(comment.text)}`;
  });
  const text = comments.map((comment) => comment.text).join('\n');
  // No place on the page: the comments' marks are scattered over it, and the block is none of its text.
  return { kind: 'comments', markdown: ['**Comments:**', ...lines].join('\n'), text, rect: { x0: 0, y0: 0, x1: 0, y1: 0 }, lines: lines.length, size: 0, bold: false, chars: text.length };
}
