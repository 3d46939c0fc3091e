/**
 * Links to a place inside the document (a table of contents' entries, a cross-reference "see Section 2": Word's
 * `w:hyperlink w:anchor` to a bookmark) point at anchors the Markdown does not have, bookmarks being no part of it:
 * `[Introduction 1](#_Toc1)` leads nowhere. Their text is kept, the link left out. The note references the HTML
 * path turns into GFM footnotes (`#footnote-N`, `#endnote-N`) and their back links are links of another kind, kept.
 */
import type { DomDocument } from '../html/dom.js';

const NOTE_LINK = /^#(?:foot|end)note-(?:ref-)?\d+$/;

export function unlinkBookmarkLinks(document: DomDocument): void {
  for (const anchor of [...document.querySelectorAll('a[href^="#"]')]) {
    if (NOTE_LINK.test(anchor.getAttribute('href') ?? '')) continue;
    anchor.replaceWith(...anchor.childNodes);
  }
}
