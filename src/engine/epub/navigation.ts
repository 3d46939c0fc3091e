/**
 * Chapter titles from a book's table of contents: the EPUB 3 navigation document (`nav` with epub:type "toc") or
 * the EPUB 2 NCX (navMap navPoints). Only entries pointing at a whole document (no `#fragment`) name a chapter:
 * an entry pointing into the middle of a file names a section that already has its heading there, or a chapter
 * that starts in a file split for size (whose beginning is the previous chapter's end).
 */
import { packageXmlParser } from '../package-xml.js';
import { parseDocument } from '../html/dom.js';
import { resolvePath } from './package-document.js';

/** Entries read from one table of contents (a hostile NCX can nest or repeat navPoints without end). */
const MAX_ENTRIES = 50_000;

const ncxParser = packageXmlParser({ trimValues: true, htmlEntities: true, isArray: (name) => name === 'navPoint' || name === 'text' });

/** Zip path → title, for the entries of an EPUB 3 navigation document (its path gives the base of its hrefs). */
export function titlesFromNav(navHtml: string, navPath: string): Map<string, string> {
  const document = parseDocument(navHtml);
  const folder = folderOf(navPath);
  const navs = [...document.querySelectorAll('nav')];
  const toc = navs.find((nav) => /(^|\s)toc(\s|$)/.test(nav.getAttribute('epub:type') ?? nav.getAttribute('role') ?? '')) ?? navs[0];
  const titles = new Map<string, string>();
  if (toc === undefined) return titles;
  let count = 0;
  for (const anchor of toc.querySelectorAll('a[href]')) {
    if ((count += 1) > MAX_ENTRIES) break;
    add(titles, folder, anchor.getAttribute('href') ?? '', anchor.textContent ?? '');
  }
  return titles;
}

/** Zip path → title, for the navPoints of an EPUB 2 NCX. */
export function titlesFromNcx(ncxXml: string, ncxPath: string): Map<string, string> {
  const parsed = ncxParser.parse(ncxXml) as { ncx?: { navMap?: { navPoint?: NavPoint[] } } };
  const folder = folderOf(ncxPath);
  const titles = new Map<string, string>();
  const stack: NavPoint[] = [...(parsed.ncx?.navMap?.navPoint ?? [])].reverse();
  let count = 0;
  while (stack.length > 0 && (count += 1) <= MAX_ENTRIES) {
    const point = stack.pop() as NavPoint;
    const label = point.navLabel?.text?.[0];
    const src = point.content?.['@_src'];
    if (typeof label === 'string' && typeof src === 'string') add(titles, folder, src, label);
    for (const child of [...(point.navPoint ?? [])].reverse()) stack.push(child);
  }
  return titles;
}

interface NavPoint {
  navLabel?: { text?: unknown[] };
  content?: Record<string, unknown>;
  navPoint?: NavPoint[];
}

function add(titles: Map<string, string>, folder: string, href: string, label: string): void {
  if (href.includes('#') || /^[a-z][a-z0-9+.-]*:/i.test(href)) return;
  const path = resolvePath(folder, href);
  const title = label.replace(/\s+/g, ' ').trim();
  if (path !== '' && title !== '' && !titles.has(path)) titles.set(path, title);
}

function folderOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
}
