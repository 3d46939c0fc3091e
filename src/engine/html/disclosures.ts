/**
 * Affiliate disclosures inside an article: the note that the page earns a commission on what readers buy through
 * its links ("This post contains affiliate links. If you buy through them, we may earn a small commission"). Shops'
 * reviews and recipe blogs put it above or under the text, often more than once; it is the publisher's notice, not
 * the article's text.
 *
 * A disclosure is a short paragraph (a `<p>`, or a `<div>` holding no other block) that speaks of affiliate links
 * or of a commission earned, in the publisher's voice (we, I, our) and of the reader's purchase. The three together
 * leave out an article about affiliate marketing, whose sentences name the links without the site earning from them.
 */
import { type DomElement, normalisedText } from './dom.js';

/** A disclosure is a note, not a paragraph of the article: at most this long (characters). */
const DISCLOSURE_MAX = 400;
const EARNING =
  /\b(?:affiliate links?|affiliate commissions?|qualifying purchases|(?:earn|earns|receive|receives|get|make)\s+(?:us\s+)?(?:an?\s+)?(?:\(very\)\s+)?(?:small\s+)?(?:affiliate\s+)?(?:commissions?|kick ?backs?))\b/i;
const PUBLISHER_VOICE = /\b(?:we|i|us|our|my)\b/i;
const PURCHASE = /\b(?:purchases?|buy|buying|click)\b/i;
const BLOCK_INSIDE = 'p, div, li, ul, ol, dl, table, figure, h1, h2, h3, h4, h5, h6, blockquote, pre';

function isAffiliateDisclosure(text: string): boolean {
  return text.length <= DISCLOSURE_MAX && EARNING.test(text) && PUBLISHER_VOICE.test(text) && PURCHASE.test(text);
}

/** Removes the affiliate disclosures inside `root` (in place); `spared` elements (a thread's posts) stay. */
export function removeAffiliateDisclosures(root: DomElement, spared: (element: DomElement) => boolean = () => false): void {
  for (const element of root.querySelectorAll('p, div')) {
    if (element.parentNode === null || element.querySelector(BLOCK_INSIDE) !== null) continue;
    if (element.closest('pre, code, blockquote') !== null || spared(element)) continue;
    if (isAffiliateDisclosure(normalisedText(element))) element.remove();
  }
}
