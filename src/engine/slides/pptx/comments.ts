/**
 * Slide comments, in both of PowerPoint's forms:
 * - legacy (`ppt/comments/commentN.xml`, `p:cmLst/p:cm` with `p:text`), authors in `ppt/commentAuthors.xml`
 *   (`p:cmAuthor` by numeric id);
 * - modern threaded comments (`ppt/comments/modernComment_*.xml`, `p188:cm` with a `p188:txBody` and a
 *   `p188:replyLst`), authors in `ppt/authors.xml` (`p188:author` by GUID).
 * Both relationship types end in `/comments`; the element tells them apart.
 */
import type { DeckBudget } from '../package.js';
import { plainText } from '../paragraphs.js';
import type { SlideComment } from '../slide-model.js';
import { attr, child, elements, textContent, type XmlElement } from '../xml.js';
import { type TextContext, textBodyParagraphs } from './text.js';

const MAX_COMMENTS = 10_000;

/** Author names by id, from `commentAuthors.xml` and/or `authors.xml`. */
export function commentAuthors(...lists: (XmlElement | undefined)[]): Map<string, string> {
  const authors = new Map<string, string>();
  for (const list of lists) {
    for (const author of elements(list, 'cmAuthor', 'author')) {
      const id = attr(author, 'id');
      const name = attr(author, 'name');
      if (id !== undefined && name !== undefined && name.trim() !== '') authors.set(id, name.trim());
    }
  }
  return authors;
}

export function readComments(list: XmlElement | undefined, authors: ReadonlyMap<string, string>, context: TextContext, budget: DeckBudget): SlideComment[] {
  return elements(list, 'cm')
    .slice(0, MAX_COMMENTS)
    .map((comment) => {
      budget.spend(1 + elements(child(comment, 'replyLst'), 'reply').length);
      return readComment(comment, authors, context, true);
    })
    .filter((comment) => comment.text !== '' || comment.replies.length > 0);
}

function readComment(comment: XmlElement, authors: ReadonlyMap<string, string>, context: TextContext, withReplies: boolean): SlideComment {
  const authorId = attr(comment, 'authorId');
  const legacyText = child(comment, 'text');
  const text =
    legacyText !== undefined
      ? textContent(legacyText).replace(/\s+/g, ' ').trim()
      : plainText(textBodyParagraphs(child(comment, 'txBody'), context), ' ');
  const replies = withReplies
    ? elements(child(comment, 'replyLst'), 'reply')
        .slice(0, MAX_COMMENTS)
        .map((reply) => readComment(reply, authors, context, false))
        .filter((reply) => reply.text !== '')
    : [];
  return { author: authorId === undefined ? null : (authors.get(authorId) ?? null), text, replies };
}
