/**
 * The styles that hide their text: a character style (`w:rStyle`) or paragraph style (`w:pStyle`) whose run
 * properties say `w:vanish`, itself or through the styles it is based on. Templates hide notes to the author and
 * answer keys this way as often as by formatting a run hidden; Word neither shows nor prints such text.
 *
 * A style's value is the nearest in its `w:basedOn` chain that sets `w:vanish` (switched on or off), as Word
 * resolves a style's properties.
 */
import { packageXmlParser } from '../package-xml.js';

const parser = packageXmlParser({ isArray: (name) => name === 'style' });

export interface HiddenStyles {
  /** Character style ids whose text is hidden. */
  character: ReadonlySet<string>;
  /** Paragraph style ids whose paragraphs' text is hidden. */
  paragraph: ReadonlySet<string>;
}

export const NO_HIDDEN_STYLES: HiddenStyles = { character: new Set(), paragraph: new Set() };

type Node = Record<string, unknown>;

interface StyleEntry {
  type: string;
  basedOn: string | undefined;
  /** Its own `w:vanish`: on, off, or not set (undefined). */
  vanish: boolean | undefined;
}

const MAX_BASED_ON_HOPS = 20;

/** The hidden styles of a package's styles part (missing, unreadable or hiding nothing: none). */
export function readHiddenStyles(stylesXml: string | undefined): HiddenStyles {
  // Most packages hide nothing through styles: the parse is spared.
  if (stylesXml === undefined || !/:vanish\b/.test(stylesXml)) return NO_HIDDEN_STYLES;
  let root: Node;
  try {
    root = parser.parse(stylesXml) as Node;
  } catch {
    return NO_HIDDEN_STYLES;
  }
  const entries = new Map<string, StyleEntry>();
  for (const style of asArray(child(child(root, 'styles'), 'style'))) {
    const id = attribute(style, 'styleId');
    const type = attribute(style, 'type');
    if (id === undefined || type === undefined) continue;
    const vanish = child(child(style, 'rPr'), 'vanish');
    entries.set(id, { type, basedOn: attribute(child(style, 'basedOn'), 'val'), vanish: vanish === undefined ? undefined : isOn(vanish) });
  }
  const character = new Set<string>();
  const paragraph = new Set<string>();
  for (const [id, entry] of entries) {
    if (!resolvesHidden(id, entries)) continue;
    if (entry.type === 'character') character.add(id);
    else if (entry.type === 'paragraph') paragraph.add(id);
  }
  return { character, paragraph };
}

function resolvesHidden(id: string, entries: ReadonlyMap<string, StyleEntry>): boolean {
  let current: string | undefined = id;
  for (let hops = 0; current !== undefined && hops < MAX_BASED_ON_HOPS; hops += 1) {
    const entry = entries.get(current);
    if (entry?.vanish !== undefined) return entry.vanish;
    current = entry?.basedOn;
  }
  return false;
}

/** A toggle property is on unless its `w:val` says false, 0 or off. */
function isOn(node: unknown): boolean {
  const value = attribute(node, 'val');
  return value === undefined || !/^(?:false|0|off)$/i.test(value);
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
