/**
 * Headings by outline level. Word makes a paragraph a heading (in the navigation pane, the table of contents and
 * its numbering) by its outline level (`w:outlineLvl`, 0 for level 1), which the built-in "heading 1" to "heading 9"
 * styles carry and which custom styles take over by being based on them ("Chapter Title" based on "Heading 1")
 * or by stating their own. mammoth knows headings by the built-in styles' names only, so a template's own heading
 * styles read as plain paragraphs. Each paragraph style with an outline level (its own, else the nearest in its
 * `w:basedOn` chain) is mapped to the heading of that level (levels past 6 to `h6`); the built-in heading, title
 * and subtitle styles keep their own mapping.
 */
import { packageXmlParser } from '../package-xml.js';

const parser = packageXmlParser({ isArray: (name) => name === 'style' });
const MAX_BASED_ON_HOPS = 20;
/** Styles mammoth or the converter's style map already read as headings. */
const ALREADY_HEADINGS = /^(?:heading [1-9]|title|subtitle)$/i;

type Node = Record<string, unknown>;

interface StyleEntry {
  name: string;
  type: string;
  basedOn: string | undefined;
  outlineLevel: number | undefined;
}

/** Style map lines (`p[style-name='Chapter Title'] => h1:fresh`) for outline-levelled styles (`outlineHeadingStyles`). */
export function outlineStyleMap(headingStyles: ReadonlyMap<string, number>): string[] {
  return [...headingStyles].map(([name, level]) => `p[style-name='${name}'] => h${Math.min(level + 1, 6)}:fresh`);
}

/**
 * The paragraph styles of a styles part that make headings by their outline level, by name, with their level
 * (0-based), the built-in heading, title and subtitle styles left out.
 */
export function outlineHeadingStyles(stylesXml: string | undefined): Map<string, number> {
  const headings = new Map<string, number>();
  if (stylesXml === undefined || !/:outlineLvl\b/.test(stylesXml)) return headings;
  let root: Node;
  try {
    root = parser.parse(stylesXml) as Node;
  } catch {
    return headings;
  }
  const entries = new Map<string, StyleEntry>();
  for (const style of asArray(child(child(root, 'styles'), 'style'))) {
    const id = attribute(style, 'styleId');
    if (id === undefined) continue;
    const level = Number.parseInt(attribute(child(child(style, 'pPr'), 'outlineLvl'), 'val') ?? '', 10);
    entries.set(id, {
      name: attribute(child(style, 'name'), 'val') ?? id,
      type: attribute(style, 'type') ?? '',
      basedOn: attribute(child(style, 'basedOn'), 'val'),
      outlineLevel: Number.isInteger(level) ? level : undefined,
    });
  }
  for (const [id, entry] of entries) {
    // A name the style map syntax cannot quote is left to mammoth's defaults.
    if (entry.type !== 'paragraph' || ALREADY_HEADINGS.test(entry.name) || /['\\]/.test(entry.name)) continue;
    const level = outlineLevelOf(id, entries);
    // Level 9 is Word's "body text": no heading.
    if (level === undefined || level < 0 || level > 8) continue;
    headings.set(entry.name, level);
  }
  return headings;
}

function outlineLevelOf(id: string, entries: ReadonlyMap<string, StyleEntry>): number | undefined {
  let current: string | undefined = id;
  for (let hops = 0; current !== undefined && hops < MAX_BASED_ON_HOPS; hops += 1) {
    const entry = entries.get(current);
    if (entry?.outlineLevel !== undefined) return entry.outlineLevel;
    current = entry?.basedOn;
  }
  return undefined;
}

function attribute(node: unknown, name: string): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const value = (node as Node)[`@_${name}`];
  return typeof value === 'string' ? value : undefined;
}

function child(node: unknown, name: string): unknown {
  return typeof node === 'object' && node !== null ? (node as Node)[name] : undefined;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}
