/**
 * What Word's numbering part and styles say about numbered paragraphs: for each list (`w:num`), its levels' start
 * values, number formats and level texts (`%1.%2.`), shared by every list of the same abstract definition (Word
 * numbers them as one unless a list restarts a level with `w:startOverride`); and for each paragraph style, the
 * list and level it numbers its paragraphs with (through `w:basedOn`) and whether it is a heading style.
 */
import { packageXmlParser } from '../package-xml.js';

const parser = packageXmlParser({ isArray: (name) => ['abstractNum', 'num', 'lvl', 'lvlOverride', 'style'].includes(name) });

export interface NumberingLevel {
  start: number;
  /** `decimal`, `lowerRoman`, `upperLetter`, `bullet`, `none`… */
  format: string;
  /** What the paragraph shows, `%N` standing for level N's number (`%1.%2.`). */
  text: string;
  /** `w:isLgl`: every level's number written in decimal (legal numbering). */
  legal: boolean;
  /** What follows the number: a tab (the default), a space or nothing. */
  suffix: 'tab' | 'space' | 'nothing';
  /**
   * `w:lvlRestart`: the level is counted again from its start only after an item of a level above this (1-based)
   * level number, 0 meaning never (a list of figures numbered through a document's chapters); undefined, after
   * an item of any level above it.
   */
  restartAfterLevel: number | undefined;
}

export interface NumberingList {
  /** The abstract definition the list numbers through: lists that share one continue each other's numbers. */
  abstractId: string;
  levels: Map<number, NumberingLevel>;
  /** Levels this list restarts at its first paragraph (`w:startOverride`). */
  startOverrides: Map<number, number>;
}

export interface ParagraphStyle {
  name: string;
  basedOn: string | undefined;
  numbering: { numId: string; level: number | undefined } | undefined;
}

export interface NumberingDefinitions {
  lists: Map<string, NumberingList>;
  styles: Map<string, ParagraphStyle>;
}

type Node = Record<string, unknown>;

const attribute = (node: unknown, name: string): string | undefined => {
  if (typeof node !== 'object' || node === null) return undefined;
  const value = (node as Node)[`@_${name}`];
  return typeof value === 'string' ? value : undefined;
};
const child = (node: unknown, name: string): unknown => (typeof node === 'object' && node !== null ? (node as Node)[name] : undefined);
const children = (node: unknown, name: string): unknown[] => {
  const value = child(node, name);
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
};
const integer = (value: string | undefined): number | undefined => {
  const parsed = value === undefined ? Number.NaN : Number.parseInt(value, 10);
  return Number.isFinite(parsed) ? parsed : undefined;
};

/** The definitions of a package's numbering and styles parts (either may be missing or unreadable: then empty). */
export function readNumberingDefinitions(numberingXml: string | undefined, stylesXml: string | undefined): NumberingDefinitions {
  const styles = readParagraphStyles(stylesXml);
  const lists = new Map<string, NumberingList>();
  const numbering = parse(numberingXml)?.['numbering'];
  if (numbering === undefined) return { lists, styles };
  const abstracts = new Map<string, { levels: Map<number, NumberingLevel>; styleLink: string | undefined }>();
  for (const abstract of children(numbering, 'abstractNum')) {
    const id = attribute(abstract, 'abstractNumId');
    if (id === undefined) continue;
    const levels = new Map<number, NumberingLevel>();
    for (const level of children(abstract, 'lvl')) {
      const index = integer(attribute(level, 'ilvl'));
      if (index !== undefined) levels.set(index, readLevel(level));
    }
    abstracts.set(id, { levels, styleLink: attribute(child(abstract, 'numStyleLink'), 'val') });
  }
  const abstractOf = new Map<string, string>();
  const overridesOf = new Map<string, { startOverrides: Map<number, number>; levels: Map<number, NumberingLevel> }>();
  for (const num of children(numbering, 'num')) {
    const numId = attribute(num, 'numId');
    const abstractId = attribute(child(num, 'abstractNumId'), 'val');
    if (numId === undefined || abstractId === undefined) continue;
    abstractOf.set(numId, abstractId);
    const startOverrides = new Map<number, number>();
    const levels = new Map<number, NumberingLevel>();
    for (const override of children(num, 'lvlOverride')) {
      const index = integer(attribute(override, 'ilvl'));
      if (index === undefined) continue;
      const start = integer(attribute(child(override, 'startOverride'), 'val'));
      if (start !== undefined) startOverrides.set(index, start);
      const level = child(override, 'lvl');
      const redefined = Array.isArray(level) ? level[0] : level;
      if (redefined !== undefined) levels.set(index, readLevel(redefined));
    }
    overridesOf.set(numId, { startOverrides, levels });
  }
  for (const [numId, abstractId] of abstractOf) {
    // An abstract definition that only links to a numbering style takes its levels from the list that style uses.
    let resolved = abstractId;
    for (let hops = 0; hops < 4; hops += 1) {
      const link = abstracts.get(resolved)?.styleLink;
      const linkedNum = link === undefined ? undefined : styles.get(link)?.numbering?.numId;
      const next = linkedNum === undefined ? undefined : abstractOf.get(linkedNum);
      if (next === undefined || next === resolved) break;
      resolved = next;
    }
    const own = overridesOf.get(numId);
    const levels = new Map(abstracts.get(resolved)?.levels ?? []);
    for (const [index, level] of own?.levels ?? []) levels.set(index, level);
    lists.set(numId, { abstractId: resolved, levels, startOverrides: own?.startOverrides ?? new Map() });
  }
  return { lists, styles };
}

function readLevel(level: unknown): NumberingLevel {
  const suffix = attribute(child(level, 'suff'), 'val');
  const legal = child(level, 'isLgl');
  return {
    // The standard's default is 0, but producers that leave the start out mean lists counted from 1.
    start: integer(attribute(child(level, 'start'), 'val')) ?? 1,
    format: attribute(child(level, 'numFmt'), 'val') ?? 'decimal',
    text: attribute(child(level, 'lvlText'), 'val') ?? '',
    legal: legal !== undefined && !/^(?:false|0|off)$/i.test(attribute(legal, 'val') ?? ''),
    suffix: suffix === 'space' || suffix === 'nothing' ? suffix : 'tab',
    restartAfterLevel: integer(attribute(child(level, 'lvlRestart'), 'val')),
  };
}

function readParagraphStyles(stylesXml: string | undefined): Map<string, ParagraphStyle> {
  const styles = new Map<string, ParagraphStyle>();
  for (const style of children(parse(stylesXml)?.['styles'], 'style')) {
    const id = attribute(style, 'styleId');
    const type = attribute(style, 'type');
    if (id === undefined || (type !== 'paragraph' && type !== 'numbering')) continue;
    const numPr = child(child(style, 'pPr'), 'numPr');
    const numId = attribute(child(numPr, 'numId'), 'val');
    styles.set(id, {
      name: attribute(child(style, 'name'), 'val') ?? id,
      basedOn: attribute(child(style, 'basedOn'), 'val'),
      numbering: numId === undefined ? undefined : { numId, level: integer(attribute(child(numPr, 'ilvl'), 'val')) },
    });
  }
  return styles;
}

function parse(xml: string | undefined): Node | undefined {
  if (xml === undefined) return undefined;
  try {
    return parser.parse(xml) as Node;
  } catch {
    return undefined;
  }
}
