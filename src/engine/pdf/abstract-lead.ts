/**
 * A paper's abstract led by its label in bold on the paragraph's first line (`Abstract — We study …`,
 * `Abstract. We …`, `Abstract—We …`): the label is the abstract's head, as a paper's other section heads are,
 * set on a line of its own; the separator after it (a dash, a full stop, a colon) goes, and the paragraph reads
 * whole from its first word. Whether the head is then a heading is the document's decision (headings.ts), as for
 * any bold line in the body's size. Pure.
 */
import { buildLine } from './lines.js';
import type { PdfTextItem, TextLine } from './types.js';
import { countWords } from './white-space.js';

/** The label, with the separator a writer sets after it. */
const ABSTRACT_LABEL = /^(abstract)\s*[.:—–-]?\s*$/iu;
/** A line that may open with the label. */
const OPENS_WITH_LABEL = /^\s*abstract/iu;
/** A separator alone, drawn as an item of its own. */
const SEPARATOR = /^[.:—–-]$/u;
/** Words the paragraph's first line holds after the label, at least. */
const MIN_WORDS_AFTER = 3;

/** The item cut at `at` (an index into its text), each part given its share of the item's width by characters. */
function cutItem(item: PdfTextItem, at: number): [PdfTextItem, PdfTextItem] {
  const share = at / item.str.length;
  const x = item.x0 + share * (item.x1 - item.x0);
  return [
    { ...item, str: item.str.slice(0, at), x1: x },
    { ...item, str: item.str.slice(at), x0: x, bold: false, spaceBefore: true },
  ];
}

/** The label's items and the text's, where the line opens with the label in bold; undefined otherwise. */
function splitLead(line: TextLine): [PdfTextItem[], PdfTextItem[]] | undefined {
  // Most lines open with another word: looked at no further.
  if (!OPENS_WITH_LABEL.test(line.text)) return undefined;
  const items = line.cells.flatMap((cell) => cell.items);
  const first = items[0];
  if (!first?.bold || line.rtl) return undefined;
  // The label run into its separator and the text's first word (`Abstract—We`): cut after the separator.
  const joined = /^(abstract\s*[—–:-])(?=\p{L})/iu.exec(first.str);
  let label: PdfTextItem[];
  let rest: PdfTextItem[];
  if (joined) {
    const [lead, after] = cutItem(first, joined[1]!.length);
    label = [lead];
    rest = [after, ...items.slice(1)];
  } else {
    let count = 0;
    while (count < items.length && items[count]!.bold && ABSTRACT_LABEL.test(items.slice(0, count + 1).map((item) => item.str).join(' '))) count++;
    if (count === 0) return undefined;
    label = items.slice(0, count);
    rest = items.slice(count);
  }
  while (rest[0] && SEPARATOR.test(rest[0].str.trim())) rest = rest.slice(1);
  if (rest.some((item) => item.bold) || countWords(rest.map((item) => item.str).join(' ')) < MIN_WORDS_AFTER) return undefined;
  const labelText = label.map((item) => item.str).join(' ');
  const name = ABSTRACT_LABEL.exec(labelText)?.[1];
  if (!name) return undefined;
  // The label alone, its separator left out.
  const last = label[label.length - 1]!;
  const keep = last.str.length - (labelText.length - labelText.indexOf(name) - name.length);
  label = [...label.slice(0, -1), ...(keep > 0 && keep < last.str.length ? [cutItem(last, keep)[0]] : keep > 0 ? [last] : [])];
  if (label.length === 0 || rest.length === 0) return undefined;
  // The paragraph's first line starts where the label did, as its other lines do: the label's room is no indent.
  return [label, [{ ...rest[0]!, x0: line.x0 }, ...rest.slice(1)]];
}

/** Most words in a section's head run into its paragraph (`2.1 Data collection.`). */
const MAX_HEAD_WORDS = 6;
/** A run-in head ends in a full stop or a colon. */
const HEAD_END = /[.:]$/u;

/** The line opens with a head in bold run into its paragraph's regular words (`Data collection. We …`). */
function opensWithRunInHead(line: TextLine): boolean {
  const items = line.cells.flatMap((cell) => cell.items);
  const lead = items.findIndex((item) => !item.bold);
  if (lead <= 0) return false;
  const head = items.slice(0, lead).map((item) => item.str).join(' ').trim();
  const rest = items.slice(lead).map((item) => item.str).join(' ');
  return countWords(head) <= MAX_HEAD_WORDS && HEAD_END.test(head) && countWords(rest) >= MIN_WORDS_AFTER;
}

/** A head on a line of its own: in bold throughout, a few words. */
function isHeadLine(line: TextLine): boolean {
  const items = line.cells.flatMap((cell) => cell.items);
  return items.length > 0 && items.every((item) => item.bold) && countWords(line.text) <= MAX_HEAD_WORDS;
}

/**
 * The lines (top to bottom) with an abstract's bold label set on a line of its own before its paragraph's first
 * line. Where the sections' heads after it are run into their paragraphs too, and none stands on a line of its
 * own, the label stays in its paragraph, as they do.
 */
export function abstractLeadApart(lines: readonly TextLine[]): TextLine[] {
  const leads = lines.map(splitLead);
  if (leads.every((parts) => parts === undefined)) return [...lines];
  // The sections' heads come after the abstract (the title and the authors stand above it).
  const after = lines.slice(leads.findIndex((parts) => parts !== undefined) + 1);
  if (after.some(opensWithRunInHead) && !after.some(isHeadLine)) return [...lines];
  let out: TextLine[] | undefined;
  lines.forEach((line, at) => {
    const parts = leads[at];
    if (!parts) {
      out?.push(line);
      return;
    }
    out ??= lines.slice(0, at);
    out.push(buildLine(parts[0]), buildLine(parts[1]));
  });
  return out ?? [...lines];
}
