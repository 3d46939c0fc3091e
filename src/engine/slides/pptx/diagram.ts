/**
 * SmartArt (`dgm:relIds` in a graphic frame) → a bulleted list of its text, nested as the diagram's hierarchy.
 *
 * The text lives in the diagram's data part (`dgm:dataModel`): points (`dgm:pt`) of type node (the default) or
 * assistant carry a text body (`dgm:t`); parent-of connections (`dgm:cxn` without a type, ordered by `srcOrd`)
 * make the tree under the document point. Points no connection reaches are listed after, at the top level.
 */
import type { Paragraph } from '../slide-model.js';
import { attr, child, elements, type XmlElement } from '../xml.js';
import { type TextContext, textBodyParagraphs } from './text.js';

const MAX_POINTS = 10_000;
const MAX_LEVEL = 8;
/** Connections followed from the root: a hostile chain cannot recurse without bound. */
const MAX_DEPTH = 256;

export function diagramParagraphs(dataModel: XmlElement, context: TextContext): Paragraph[] {
  const points = elements(child(dataModel, 'ptLst'), 'pt').slice(0, MAX_POINTS);
  const byId = new Map<string, XmlElement>();
  for (const point of points) {
    const id = attr(point, 'modelId');
    if (id !== undefined) byId.set(id, point);
  }
  const children = new Map<string, { id: string; order: number }[]>();
  const hasParent = new Set<string>();
  for (const connection of elements(child(dataModel, 'cxnLst'), 'cxn').slice(0, MAX_POINTS)) {
    const type = attr(connection, 'type') ?? 'parOf';
    if (type !== 'parOf') continue;
    const source = attr(connection, 'srcId');
    const destination = attr(connection, 'destId');
    if (source === undefined || destination === undefined) continue;
    const list = children.get(source) ?? [];
    list.push({ id: destination, order: Number(attr(connection, 'srcOrd') ?? list.length) || 0 });
    children.set(source, list);
    hasParent.add(destination);
  }

  const paragraphs: Paragraph[] = [];
  const visited = new Set<string>();
  const visit = (id: string, level: number, depth: number) => {
    if (visited.has(id) || depth > MAX_DEPTH) return;
    visited.add(id);
    const point = byId.get(id);
    const type = attr(point, 'type') ?? 'node';
    let childLevel = level;
    if (point !== undefined && (type === 'node' || type === 'asst')) {
      const text = textBodyParagraphs(child(point, 't'), context);
      const runs = text.flatMap((paragraph, index) => (index === 0 ? paragraph.runs : [{ text: ' ' }, ...paragraph.runs]));
      if (runs.some((run) => run.text.trim() !== '')) {
        paragraphs.push({ runs, list: { ordered: false, level: Math.min(level, MAX_LEVEL) } });
        childLevel = level + 1;
      }
    }
    const next = [...(children.get(id) ?? [])].sort((a, b) => a.order - b.order);
    for (const entry of next) visit(entry.id, childLevel, depth + 1);
  };
  for (const point of points) {
    const id = attr(point, 'modelId');
    if (id !== undefined && (attr(point, 'type') === 'doc' || !hasParent.has(id))) visit(id, 0, 0);
  }
  return paragraphs;
}
