/**
 * A Word package's styles part, read once for what docmill takes from it: each style's type, name, the style it is
 * based on, and the properties it sets itself (hidden text, outline level, bold, type size). A style's value for a property is the
 * nearest in its `w:basedOn` chain that sets it, as Word resolves a style's properties (`inherited`).
 */
import { packageXmlParser } from '../package-xml.js';

const parser = packageXmlParser({ isArray: (name) => name === 'style' });
/** A `w:basedOn` chain is followed this far at most (a hostile part can make it a loop). */
const MAX_BASED_ON_HOPS = 20;

type Node = Record<string, unknown>;

export interface StyleEntry {
  name: string;
  type: string;
  basedOn: string | undefined;
  /** Its own `w:vanish` in its run properties: on, off, or not set (undefined). */
  vanish: boolean | undefined;
  /** Its own `w:outlineLvl` (0 for level 1), if set. */
  outlineLevel: number | undefined;
  /** Its own `w:b` in its run properties, if set. */
  bold: boolean | undefined;
  /** Its own `w:sz` (half-points), if set. */
  size: number | undefined;
}

/** The styles by id. */
export type StyleSheet = ReadonlyMap<string, StyleEntry>;

/**
 * The styles of a package's styles part, read only where the part sets hidden text or an outline level (most set
 * neither: the parse is spared) or `always`; undefined when it is missing, sets neither or cannot be read.
 */
export function readStyleSheet(stylesXml: string | undefined, always = false): StyleSheet | undefined {
  if (stylesXml === undefined || (!always && !/:(?:vanish|outlineLvl)\b/.test(stylesXml))) return undefined;
  let root: Node;
  try {
    root = parser.parse(stylesXml) as Node;
  } catch {
    return undefined;
  }
  const entries = new Map<string, StyleEntry>();
  for (const style of asArray(child(child(root, 'styles'), 'style'))) {
    const id = attribute(style, 'styleId');
    if (id === undefined) continue;
    const vanish = child(child(style, 'rPr'), 'vanish');
    const bold = child(child(style, 'rPr'), 'b');
    const size = Number.parseInt(attribute(child(child(style, 'rPr'), 'sz'), 'val') ?? '', 10);
    const level = Number.parseInt(attribute(child(child(style, 'pPr'), 'outlineLvl'), 'val') ?? '', 10);
    entries.set(id, {
      name: attribute(child(style, 'name'), 'val') ?? id,
      type: attribute(style, 'type') ?? '',
      basedOn: attribute(child(style, 'basedOn'), 'val'),
      vanish: vanish === undefined ? undefined : isOn(vanish),
      outlineLevel: Number.isInteger(level) ? level : undefined,
      bold: bold === undefined ? undefined : isOn(bold),
      size: size > 0 ? size : undefined,
    });
  }
  return entries;
}

/** The type size (half-points) the styles part gives runs by default (`w:docDefaults`); Word's 20 where it gives none. */
export function defaultRunSize(stylesXml: string | undefined): number {
  const defaults = stylesXml === undefined ? undefined : /<(?:\w+:)?rPrDefault\b[\s\S]*?<\/(?:\w+:)?rPrDefault>/.exec(stylesXml)?.[0];
  const size = Number.parseInt(/<(?:\w+:)?sz\s+(?:\w+:)?val="(\d+)"/.exec(defaults ?? '')?.[1] ?? '', 10);
  return size > 0 ? size : 20;
}

/** The nearest value `pick` finds in the `w:basedOn` chain of style `id`, the style itself first. */
export function inherited<T>(id: string, sheet: StyleSheet, pick: (entry: StyleEntry) => T | undefined): T | undefined {
  let current: string | undefined = id;
  for (let hops = 0; current !== undefined && hops < MAX_BASED_ON_HOPS; hops += 1) {
    const entry = sheet.get(current);
    const value = entry && pick(entry);
    if (value !== undefined) return value;
    current = entry?.basedOn;
  }
  return undefined;
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
