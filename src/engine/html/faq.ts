/**
 * A page's questions and answers declared in schema.org `FAQPage` JSON-LD, and the section of the page showing
 * them. The page says by this markup that its FAQ is part of its content; readability often leaves it out (an
 * accordion after the article, a block of its own beside the article's container), so main-content.ts keeps it.
 */
import { type DomElement, isElement, isText, normalisedLength, tagOf } from './dom.js';

export interface FaqEntry {
  question: string;
  answer: string;
}

/** Around the questions and answers the JSON-LD gives, the section holds at most this share more text. */
const SECTION_SLACK = 1.5;
/** ... and this much more (characters): a title, buttons, a line of introduction. */
const SECTION_EXTRA = 300;
/** The longest title (characters) above the questions taken with them ("Frequently asked questions"). */
const TITLE_MAX = 40;
/** The section shows at least this share of the answers (their first words). */
const MIN_SHOWN = 0.5;
/** An answer is recognised by its first words, this many. */
const ANSWER_START_WORDS = 6;
/** At least this many questions found on the page make a section. */
const MIN_FOUND = 2;

/** The questions and answers of the page's JSON-LD `FAQPage` nodes (`nodes` from jsonLdNodes). */
export function jsonLdFaq(nodes: readonly Record<string, unknown>[]): FaqEntry[] {
  const entries: FaqEntry[] = [];
  for (const node of nodes) {
    if (!hasType(node, 'FAQPage')) continue;
    const main = node['mainEntity'];
    for (const item of Array.isArray(main) ? main : [main]) {
      if (item === null || typeof item !== 'object') continue;
      const question = item as Record<string, unknown>;
      const name = question['name'];
      if (!hasType(question, 'Question') || typeof name !== 'string') continue;
      const accepted = question['acceptedAnswer'];
      const first: unknown = Array.isArray(accepted) ? accepted[0] : accepted;
      const text = first !== null && typeof first === 'object' ? (first as Record<string, unknown>)['text'] : undefined;
      entries.push({ question: name, answer: typeof text === 'string' ? text.replace(/<[^>]*>/g, ' ') : '' });
    }
  }
  return entries;
}

function hasType(node: Record<string, unknown>, type: string): boolean {
  const types = node['@type'];
  return Array.isArray(types) ? types.includes(type) : types === type;
}

/**
 * The element of `root` showing the FAQ: the smallest one holding the questions found on the page (with the title
 * above them), no larger than the questions and answers would be. Null when fewer than half of the questions (or
 * two) are found, or when the questions are spread over the page (headings of the article itself).
 */
export function faqSection(root: DomElement, entries: readonly FaqEntry[]): DomElement | null {
  if (entries.length === 0) return null;
  const wanted = new Map(entries.map((entry) => [wordsOf(entry.question), entry]));
  const found = new Map<string, DomElement>();
  const linked = new Map<string, DomElement>();
  for (const element of shortElements(root)) {
    if (!QUESTION_TAGS.has(tagOf(element))) continue;
    const words = wordsOf(element.textContent ?? '');
    if (!wanted.has(words) || found.has(words)) continue;
    // A table of contents links to the questions: a question in a link counts only where no other shows it
    // (an accordion's toggle may be a link), and then its last one (the section comes after its contents).
    if (element.closest('a') !== null) linked.set(words, element);
    else found.set(words, element);
  }
  for (const [words, element] of linked) if (!found.has(words)) found.set(words, element);
  const needed = Math.max(MIN_FOUND, entries.length / 2);
  if (found.size < needed) return null;
  const expected = [...found.keys()].reduce((sum, words) => {
    const entry = wanted.get(words) as FaqEntry;
    return sum + entry.question.length + entry.answer.replace(/\s+/g, ' ').trim().length;
  }, 0);
  let section = densestHolder([...found.values()], root, needed, expected * SECTION_SLACK + SECTION_EXTRA);
  // Questions shown without their answers (filled in by a script on opening) are a list of links, not the FAQ.
  if (section === null || !showsAnswers(section, [...found.keys()].map((words) => (wanted.get(words) as FaqEntry).answer))) return null;
  // The section's title ("FAQ", "Frequently asked questions") in a wrapper around it.
  for (let parent = section.parentElement; parent !== null && parent !== root; parent = parent.parentElement) {
    if (normalisedLength(parent) - normalisedLength(section) > TITLE_MAX) break;
    section = parent;
  }
  return section;
}

/** Question texts longer than this (characters, with the markup's whitespace) are not looked for. */
const MAX_QUESTION_TEXT = 1000;
/** The elements a question is shown in. */
const QUESTION_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'summary', 'button', 'dt', 'strong', 'b', 'p', 'span', 'div', 'label', 'a']);

/**
 * The elements of `root` with no more text than a question may have, inner ones before the element holding them,
 * else in document order. Lengths are summed bottom-up in one pass: reading each container's text in turn would
 * read a long page's text once per element.
 */
function shortElements(root: DomElement): DomElement[] {
  const short: DomElement[] = [];
  const visit = (node: DomElement): number => {
    let length = 0;
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (isElement(child)) length += visit(child);
      else if (isText(child)) length += (child.textContent ?? '').length;
    }
    if (length <= MAX_QUESTION_TEXT) short.push(node);
    return length;
  };
  visit(root);
  return short;
}

function showsAnswers(section: DomElement, answers: readonly string[]): boolean {
  const shown = wordsOf(section.textContent ?? '');
  const starts = answers.map((answer) => wordsOf(answer).split(' ').slice(0, ANSWER_START_WORDS).join(' ')).filter((start) => start !== '');
  return starts.filter((start) => shown.includes(start)).length >= starts.length * MIN_SHOWN && starts.length > 0;
}

function wordsOf(text: string): string {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
}

/**
 * The element below `root` holding the most of `elements` (at least `needed`) within `maxLength` characters of
 * text, the smallest of those holding as many: the questions' own section, without a question the article asks in
 * a heading of its own elsewhere.
 */
function densestHolder(elements: readonly DomElement[], root: DomElement, needed: number, maxLength: number): DomElement | null {
  const held = new Map<DomElement, number>();
  for (const element of elements) {
    for (let node = element.parentElement; node !== null && node !== root; node = node.parentElement) held.set(node, (held.get(node) ?? 0) + 1);
  }
  let best: DomElement | null = null;
  let bestCount = 0;
  let bestLength = Infinity;
  for (const [node, count] of held) {
    if (count < needed || count < bestCount) continue;
    const length = normalisedLength(node);
    if (length > maxLength || (count === bestCount && length >= bestLength)) continue;
    best = node;
    bestCount = count;
    bestLength = length;
  }
  return best;
}

