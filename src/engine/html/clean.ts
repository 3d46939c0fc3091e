/**
 * The cleaning the `html` format promises (spec: "Cleaned HTML"), done in place on the parsed document:
 * - script, style, noscript, meta, template, iframe, link (stylesheets and the rest of the head's links), base and
 *   comments removed, soft hyphens (U+00AD, invisible hyphenation hints) dropped from the text; the head (and
 *   any stray <title>) goes last, after metadata and readability have used it;
 * - with a `<base href>`, relative URLs made absolute (href, src, srcset, poster, cite, action, data); without one
 *   they stay as written: an uploaded file has no page URL, and docmill does not invent one;
 * - `<img srcset>` resolved to its largest candidate (by `w` descriptor, else `x`), written into `src`; `srcset`
 *   and `sizes` are then dropped so the result is unambiguous;
 * - `removeBase64Images`: `data:` image sources replaced by the hosted API's placeholder `<Base64-Image-Removed>`
 *   (the alt text stays, so Markdown shows `![alt](<Base64-Image-Removed>)`);
 * - `includeTags` (CSS selectors): the body keeps only the outermost matching elements, in document order;
 *   `excludeTags`: matching elements removed. An invalid selector is ignored with a warning.
 */
import { BASE64_IMAGE_PLACEHOLDER } from './markdown.js';
import { COMMENT_NODE, type DomDocument, type DomElement, type DomNode, descendants, selectAll, TEXT_NODE } from './dom.js';
import { absoluteBase, largestSrcsetCandidate, parseSrcset, resolveUrl } from './urls.js';

/** U+00AD: an invisible hyphenation hint; left in, it splits the word for search and for every reader of the text. */
const SOFT_HYPHEN = '\u00AD';

const REMOVED_ELEMENTS = ['script', 'style', 'noscript', 'meta', 'template', 'iframe', 'link', 'base'];

const URL_ATTRIBUTES: [selector: string, attribute: string][] = [
  ['a[href]', 'href'],
  ['area[href]', 'href'],
  ['img[src]', 'src'],
  ['source[src]', 'src'],
  ['video[src]', 'src'],
  ['video[poster]', 'poster'],
  ['audio[src]', 'src'],
  ['track[src]', 'src'],
  ['embed[src]', 'src'],
  ['input[src]', 'src'],
  ['object[data]', 'data'],
  ['form[action]', 'action'],
  ['blockquote[cite]', 'cite'],
  ['q[cite]', 'cite'],
  ['ins[cite]', 'cite'],
  ['del[cite]', 'cite'],
];

/** The absolute `<base href>` of the page, or null. */
export function baseUrlOf(document: DomDocument): string | null {
  const base = document.querySelector('base[href]');
  return absoluteBase(base?.getAttribute('href') ?? null);
}

/** Removes the elements that are never content, comments and soft hyphens. */
export function removeNonContent(document: DomDocument): void {
  const root = document.documentElement;
  if (root === null) return;
  for (const tag of REMOVED_ELEMENTS) {
    for (const element of [...root.querySelectorAll(tag)]) element.remove();
  }
  const comments: DomNode[] = [];
  for (const node of descendants(root)) {
    if (node.nodeType === COMMENT_NODE) comments.push(node);
    else if (node.nodeType === TEXT_NODE && node.textContent?.includes(SOFT_HYPHEN) === true) node.textContent = node.textContent.replaceAll(SOFT_HYPHEN, '');
  }
  for (const comment of comments) comment.remove();
}

export function removeHead(document: DomDocument): void {
  document.head?.remove();
  for (const title of [...(document.documentElement?.querySelectorAll('title') ?? [])]) {
    if (title.closest('svg') === null) title.remove();
  }
}

/** Absolute URLs against `base` (when there is one), srcset resolution, base64 image removal. */
export function rewriteUrls(root: DomElement, base: string | null, removeBase64Images: boolean): void {
  if (base !== null) {
    for (const [selector, attribute] of URL_ATTRIBUTES) {
      for (const element of root.querySelectorAll(selector)) {
        const value = element.getAttribute(attribute);
        // A fragment-only href stays a fragment: it points into this page, whatever the base.
        if (value === null || value.trim().startsWith('#')) continue;
        element.setAttribute(attribute, resolveUrl(value, base));
      }
    }
    for (const source of root.querySelectorAll('source[srcset]')) {
      const candidates = parseSrcset(source.getAttribute('srcset') ?? '');
      source.setAttribute(
        'srcset',
        candidates
          .map((candidate) => {
            const descriptor = candidate.width !== undefined ? ` ${candidate.width}w` : candidate.density !== 1 ? ` ${candidate.density}x` : '';
            return resolveUrl(candidate.url, base) + descriptor;
          })
          .join(', '),
      );
    }
  }
  for (const image of root.querySelectorAll('img[srcset]')) {
    const largest = largestSrcsetCandidate(image.getAttribute('srcset') ?? '');
    if (largest !== null) image.setAttribute('src', resolveUrl(largest.url, base));
    image.removeAttribute('srcset');
    image.removeAttribute('sizes');
  }
  if (removeBase64Images) {
    for (const image of root.querySelectorAll('img[src]')) {
      if (/^\s*data:/i.test(image.getAttribute('src') ?? '')) image.setAttribute('src', BASE64_IMAGE_PLACEHOLDER);
    }
    for (const source of root.querySelectorAll('source[srcset], source[src]')) {
      if (/data:/i.test(`${source.getAttribute('srcset') ?? ''} ${source.getAttribute('src') ?? ''}`)) source.remove();
    }
  }
}

/** Applies includeTags then excludeTags to the body; returns warnings for selectors that could not be used. */
export function applyTagFilters(
  document: DomDocument,
  includeTags: readonly string[] | undefined,
  excludeTags: readonly string[] | undefined,
): string[] {
  const warnings: string[] = [];
  const body = document.body;
  if (body === null) return warnings;
  const include = (includeTags ?? []).map((selector) => selector.trim()).filter(Boolean);
  if (include.length > 0) {
    const matched = new Set<DomElement>();
    for (const selector of include) {
      const found = selectAll(body, selector);
      if (found instanceof Error) warnings.push(`includeTags: "${selector}" is not a valid CSS selector and was ignored`);
      else for (const element of found) matched.add(element);
    }
    // Outermost matches in document order (querySelectorAll order within one selector; re-sorted across several).
    const ordered = [...body.querySelectorAll('*')].filter((element) => matched.has(element));
    const outermost = ordered.filter((element) => {
      for (let parent = element.parentElement; parent !== null && parent !== body; parent = parent.parentElement) {
        if (matched.has(parent)) return false;
      }
      return true;
    });
    body.replaceChildren(...outermost);
  }
  for (const selector of (excludeTags ?? []).map((value) => value.trim()).filter(Boolean)) {
    const found = selectAll(body, selector);
    if (found instanceof Error) warnings.push(`excludeTags: "${selector}" is not a valid CSS selector and was ignored`);
    else for (const element of found) element.remove();
  }
  return warnings;
}

/** Links of the cleaned page: absolute when the page had a base, without javascript: and fragment-only ones. */
export function collectLinks(root: DomElement): string[] {
  const links = new Set<string>();
  for (const anchor of root.querySelectorAll('a[href], area[href]')) {
    const href = (anchor.getAttribute('href') ?? '').trim();
    if (href === '' || href.startsWith('#') || /^javascript:/i.test(href)) continue;
    links.add(href);
  }
  return [...links];
}

/** Image URLs of the cleaned page (data: URIs and the removal placeholder left out). */
export function collectImages(root: DomElement): string[] {
  const images = new Set<string>();
  for (const image of root.querySelectorAll('img[src]')) {
    const src = (image.getAttribute('src') ?? '').trim();
    if (src === '' || src === BASE64_IMAGE_PLACEHOLDER || /^data:/i.test(src)) continue;
    images.add(src);
  }
  return [...images];
}
