/**
 * Doubly encoded characters a page writes as entities (`&acirc;&euro;&trade;`, `&#195;&#169;`): the decoder turns
 * back those of the raw text (bytes/mojibake.ts), but entities only become characters once the markup is parsed.
 * The page's text nodes are weighed together and turned back each on its own.
 */
import { repairPieces } from '../bytes/mojibake.js';
import { descendants, type DomDocument, isText } from './dom.js';

/**
 * Markup that can hold such entities: a named or numeric entity of a lead character (U+00C2–U+00F4: Â, Ã, â...) or a
 * C1 control. Without one, the parsed text holds nothing the decoder did not see.
 */
const SUSPECT_ENTITY = /&(?:[Aa](?:circ|tilde);|#(?:19[4-9]|2[0-3]\d|24[0-4]|12[89]|1[3-5]\d);|#x(?:[cCdDeE][0-9a-fA-F]|[fF][0-4]|[89][0-9a-fA-F]);)/;

/** Turns back the doubly encoded characters of `document`'s text nodes; returns how many were. */
export function repairEntityDoubleEncoding(markup: string, document: DomDocument): number {
  if (!SUSPECT_ENTITY.test(markup)) return 0;
  // The parser gives each entity a text node of its own: "isn", "â", "€", "™", "t" are one text once joined.
  document.normalize();
  const nodes = [...descendants(document)].filter(isText);
  const { pieces, runs } = repairPieces(nodes.map((node) => node.textContent ?? ''));
  if (runs === 0) return 0;
  nodes.forEach((node, index) => {
    const text = pieces[index] ?? '';
    if (text !== node.textContent) node.textContent = text;
  });
  return runs;
}
