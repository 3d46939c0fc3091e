/**
 * Content a page streams in after its first bytes, put where the browser shows it.
 *
 * React's streaming server rendering (Next.js app router and others) sends a page in order of readiness: a
 * placeholder first (`<template id="B:1">` after a `<!--$?-->` comment, followed by a fallback such as a spinner,
 * up to its `<!--/$-->`; or a bare `<template id="P:2">`), and the real content later in the same file, inside a
 * hidden `<div hidden id="S:1">`, with a small inline script (`$RC("B:1","S:1")`, `$RR(...)` or
 * `$RS("S:2","P:2")`) that moves it into place. Without scripts the article of such a page sits in hidden
 * elements that cleaning and main-content extraction rightly drop, and the page comes out empty or as a spinner.
 * The moves the page's own scripts name are replayed here, in their order, before scripts are removed; a page with
 * scripts that name none is left as it is (a browser would move nothing either). A page kept without any inline
 * script (an archive, a crawler's copy, "save without scripts") still holds the hidden segments and placeholders:
 * each segment `S:n` then goes where React's numbering puts it, the placeholder `P:n` (a segment's placeholder
 * always shares its number) or else the boundary `B:n` (numbered alike on the pages seen), in the order of their
 * numbers, so that a segment brought into place brings the next one's placeholder; one with neither is shown where
 * it stands.
 */
import { COMMENT_NODE, type DomDocument, type DomElement, type DomNode } from './dom.js';

/** `$RC("B:1","S:1")` / `$RR("B:1","S:1",...)` complete a boundary, `$RS("S:2","P:2")` a segment. */
const STREAM_CALL = /\$R([CRS])\(\s*["']([^"']+)["']\s*,\s*["']([^"']+)["']/g;

/** Replays React's streamed-content moves named by the page's inline scripts. Returns how many were applied. */
export function applyStreamedContent(document: DomDocument): number {
  const root = document.documentElement;
  if (root === null) return 0;
  const calls: { kind: string; first: string; second: string }[] = [];
  let inlineScripts = 0;
  for (const script of root.getElementsByTagName('script')) {
    if (script.hasAttribute('src')) continue;
    inlineScripts++;
    const text = script.textContent ?? '';
    if (!text.includes('$R')) continue;
    for (const match of text.matchAll(STREAM_CALL)) calls.push({ kind: match[1] as string, first: match[2] as string, second: match[3] as string });
  }
  const byId = new Map<string, DomElement>();
  for (const element of root.querySelectorAll('[id]')) {
    const id = element.getAttribute('id') as string;
    if (!byId.has(id)) byId.set(id, element);
  }
  // A page with its scripts and no move names none a browser would make.
  if (calls.length === 0) return inlineScripts === 0 ? placeUnscriptedSegments(byId) : 0;
  let applied = 0;
  for (const { kind, first, second } of calls) {
    if (kind === 'S' ? completeSegment(byId.get(first), byId.get(second)) : completeBoundary(byId.get(first), byId.get(second))) applied++;
  }
  return applied;
}

const SEGMENT_ID = /^S:(\d+)$/;

/** The streamed segments of a page without its scripts, placed by their numbers (see the module). */
function placeUnscriptedSegments(byId: ReadonlyMap<string, DomElement>): number {
  const segments: { n: number; content: DomElement }[] = [];
  for (const [id, element] of byId) {
    const n = SEGMENT_ID.exec(id)?.[1];
    if (n !== undefined && element.tagName === 'DIV' && element.hasAttribute('hidden')) segments.push({ n: Number(n), content: element });
  }
  segments.sort((a, b) => a.n - b.n);
  let applied = 0;
  for (const { n, content } of segments) {
    const placeholder = [byId.get(`P:${n}`), byId.get(`B:${n}`)].find((element) => element?.tagName === 'TEMPLATE' && element.parentNode !== null);
    if (placeholder !== undefined ? completeBoundary(placeholder, content) : showInPlace(content)) applied++;
  }
  return applied;
}

/** A segment with no placeholder: its content shown where it stands. */
function showInPlace(content: DomElement): boolean {
  if (content.parentNode === null) return false;
  content.removeAttribute('hidden');
  return true;
}

/** The segment's content replaces its placeholder template. */
function completeSegment(content: DomElement | undefined, placeholder: DomElement | undefined): boolean {
  if (content === undefined || placeholder === undefined || placeholder.parentNode === null) return false;
  const parent = placeholder.parentNode;
  for (const child of childrenOf(content)) parent.insertBefore(child, placeholder);
  placeholder.remove();
  content.remove();
  return true;
}

/**
 * The boundary's fallback (from its `<!--$?-->` marker to the matching `<!--/$-->`) is replaced by the content,
 * as React's `$RC` does; a template without its markers is replaced in place.
 */
function completeBoundary(template: DomElement | undefined, content: DomElement | undefined): boolean {
  if (template === undefined || content === undefined || template.parentNode === null) return false;
  const parent = template.parentNode;
  const start = template.previousSibling;
  if (start === null || !isMarker(start, '$?')) return completeSegment(content, template);
  // Found before anything is removed: without its end marker the fallback's extent is unknown.
  let end: DomNode | null = null;
  let depth = 0;
  for (let node = template.nextSibling; node !== null && end === null; node = node.nextSibling) {
    if (node.nodeType !== COMMENT_NODE) continue;
    const data = node.textContent ?? '';
    if (data === '/$' && depth === 0) end = node;
    else if (data === '/$') depth--;
    else if (data === '$' || data === '$?' || data === '$!') depth++;
  }
  if (end === null) return completeSegment(content, template);
  while (template.nextSibling !== null && template.nextSibling !== end) template.nextSibling.remove();
  template.remove();
  for (const child of childrenOf(content)) parent.insertBefore(child, end);
  content.remove();
  start.textContent = '$';
  return true;
}

function isMarker(node: DomNode, data: string): boolean {
  return node.nodeType === COMMENT_NODE && node.textContent === data;
}

function childrenOf(element: DomElement): DomNode[] {
  const children: DomNode[] = [];
  for (let child = element.firstChild; child !== null; child = child.nextSibling) children.push(child);
  return children;
}
