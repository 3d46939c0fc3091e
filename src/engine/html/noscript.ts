/**
 * Pages whose scripts draw all of their content and that give readers without scripts the same content in
 * `<noscript>` (forums such as Discourse serve their whole thread there; so do some single-page apps). docmill runs
 * no scripts, so it reads such a page as a browser with scripts off shows it: the `<noscript>` elements of the body
 * take their content's place. Only on a page whose `<noscript>` content holds more text than the rest of its body,
 * and a fair amount of it: on other pages `<noscript>` holds tracking pixels, "enable JavaScript" notes and copies of
 * lazy-loaded images, which cleaning removes.
 */
import { type DomDocument, normalisedLength, textLengthOf } from './dom.js';

/** Below this many characters of text, `<noscript>` content is a note, not the page. */
const MIN_NOSCRIPT_TEXT = 200;

/** Elements a reader never sees as text, whichever way scripts are set. */
const NEVER_SHOWN = 'script, style, template';

/** Unwraps the body's `<noscript>` elements where they hold the page. Returns how many were unwrapped. */
export function showNoscriptContent(document: DomDocument): number {
  const body = document.body;
  if (body === null) return 0;
  const noscripts = [...body.querySelectorAll('noscript')].filter((element) => (element.parentElement?.closest('noscript') ?? null) === null);
  if (noscripts.length === 0) return 0;
  const inNoscript = textLengthOf(noscripts);
  if (inNoscript < MIN_NOSCRIPT_TEXT) return 0;
  const hidden = [...body.querySelectorAll(NEVER_SHOWN)].filter((element) => element.closest('noscript') === null);
  const shown = normalisedLength(body) - inNoscript - textLengthOf(hidden);
  if (inNoscript <= shown) return 0;
  let unwrapped = 0;
  for (const element of noscripts) {
    if (normalisedLength(element) === 0) continue;
    element.replaceWith(...element.childNodes);
    unwrapped++;
  }
  return unwrapped;
}
