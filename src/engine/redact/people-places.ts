/**
 * PERSON and LOCATION from compromise's English model (it ships in the package: no download, no network).
 * Precision first takes only what the model is sure of: a known first name in a run of capitalised words, or a
 * title (Dr., Mrs.) before one; places it tags as such, capitalised, never a short all-caps word. Recall first
 * also takes single names and runs of two or three capitalised words the model reads as proper nouns.
 */
import type { PiiSpan, RedactionMode } from './entities.js';

interface TermJson {
  text: string;
  tags: string[];
  offset: { start: number; length: number };
}
interface MatchJson {
  terms: TermJson[];
}
interface View {
  people(): View;
  places(): View;
  json(options: object): MatchJson[];
}
type Nlp = (text: string) => View;

let loaded: Promise<Nlp> | undefined;

/** Loads the model once per thread, on first use (about a second), so `fast` never pays for it. */
export function loadNlp(): Promise<Nlp> {
  loaded ??= import('compromise').then((module) => module.default as unknown as Nlp);
  return loaded;
}

const JSON_OPTIONS = { offset: true, terms: { offset: true } };
/** Capitalised words that open many phrases without naming anyone. */
const NOT_A_NAME = new Set([
  'The', 'A', 'An', 'This', 'That', 'These', 'Those', 'Our', 'Your', 'My', 'His', 'Her', 'Their', 'We', 'I', 'It',
  'Dear', 'Hello', 'Hi', 'Thanks', 'Regards', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday',
  'Sunday', 'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
  'November', 'December', 'Inc', 'Ltd', 'LLC', 'GmbH', 'Street', 'Avenue', 'Road', 'Page', 'Table', 'Figure',
]);
const KNOWN_PLACE_TAGS = new Set(['City', 'Country', 'Region', 'Address']);
const NON_NAME_TAGS = ['Organization', 'Place', 'Date', 'Month', 'WeekDay', 'Pronoun', 'Determiner', 'Verb', 'Value'];

export function findPeopleAndPlaces(nlp: Nlp, text: string, mode: RedactionMode, wanted: { person: boolean; location: boolean }): PiiSpan[] {
  if (!/\p{Lu}/u.test(text)) return [];
  const prose = proseView(text);
  const spans: PiiSpan[] = [];
  const tagsAt = new Map<number, string[]>();
  for (const chunk of chunksOf(prose)) {
    const doc = nlp(chunk.text);
    const add = (range: { start: number; end: number } | undefined, entity: PiiSpan['entity']): void => {
      if (range) spans.push({ start: range.start + chunk.start, end: range.end + chunk.start, entity });
    };
    if (wanted.person) {
      for (const match of doc.people().json(JSON_OPTIONS)) add(personSpan(match.terms, mode), 'PERSON');
      if (mode === 'aggressive') {
        for (const sentence of doc.json(JSON_OPTIONS)) {
          for (const term of sentence.terms) tagsAt.set(term.offset.start + chunk.start, term.tags);
        }
      }
    }
    if (wanted.location) {
      for (const match of doc.places().json(JSON_OPTIONS)) add(placeSpan(match.terms, mode), 'LOCATION');
    }
  }
  if (wanted.person && mode === 'aggressive') spans.push(...capitalisedNames(prose, tagsAt));
  return spans;
}

/** Longest text handed to the model at once: its cost grows faster than the text, and lines are its sentences anyway. */
const MAX_CHUNK = 4000;

/** The lines of the text that hold a capital letter, long ones cut at a sentence end or a space. */
function* chunksOf(text: string): Generator<{ start: number; text: string }> {
  for (const line of text.matchAll(/[^\n]+/g)) {
    let start = line.index;
    let rest = line[0];
    while (rest.length > 0) {
      let length = rest.length;
      if (length > MAX_CHUNK) {
        const window = rest.slice(0, MAX_CHUNK);
        const sentenceEnd = Math.max(window.lastIndexOf('. '), window.lastIndexOf('! '), window.lastIndexOf('? '));
        length = sentenceEnd > MAX_CHUNK / 2 ? sentenceEnd + 2 : Math.max(window.lastIndexOf(' ') + 1, MAX_CHUNK / 2);
      }
      const piece = rest.slice(0, length);
      if (/\p{Lu}/u.test(piece)) yield { start, text: piece };
      start += length;
      rest = rest.slice(length);
    }
  }
}

const SOFT_WRAP = /(?<=[\p{Ll},;])\n(?=[ \t]*\p{L})/gu;
const URL_OR_MARKUP = /\b(?:https?:\/\/|www\.|mailto:|tel:)[^\s<>()"'`\]]+|[[\]()|*_#>`]/g;

/**
 * The text as the model should read it: URLs and Markdown punctuation become spaces of the same length, so
 * `[Laura Bennett](https://…)` reads as a name and every offset still points into the original text.
 */
function proseView(text: string): string {
  // A line break inside a sentence (wrapped HTML text) would otherwise end the model's sentence there.
  return text.replace(URL_OR_MARKUP, (found) => ' '.repeat(found.length)).replace(SOFT_WRAP, ' ');
}

function isCapitalised(word: string): boolean {
  return /^\p{Lu}/u.test(word);
}

function rangeOf(terms: readonly TermJson[]): { start: number; end: number } {
  const first = terms[0] as TermJson;
  const last = terms[terms.length - 1] as TermJson;
  return { start: first.offset.start, end: last.offset.start + last.offset.length };
}

function personSpan(terms: readonly TermJson[], mode: RedactionMode): { start: number; end: number } | undefined {
  const titled = terms.some((term) => term.tags.includes('Honorific'));
  const name = terms.filter((term) => !term.tags.includes('Honorific'));
  if (name.length === 0 || !name.every((term) => isCapitalised(term.text) && !NOT_A_NAME.has(term.text))) return undefined;
  if (mode !== 'aggressive') {
    const knownFirstName = name.some((term) => term.tags.includes('FirstName'));
    if (!(titled || (name.length >= 2 && knownFirstName))) return undefined;
  }
  return rangeOf(name);
}

function placeSpan(terms: readonly TermJson[], mode: RedactionMode): { start: number; end: number } | undefined {
  const words = terms.filter((term) => /\p{L}/u.test(term.text));
  if (words.length === 0) return undefined;
  if (!terms.every((term) => isCapitalised(term.text) || /^\d/.test(term.text))) return undefined;
  if (words.some((term) => NOT_A_NAME.has(term.text))) return undefined;
  // US, UK, IL: too short to tell a place from an abbreviation.
  if (terms.length === 1 && /^\p{Lu}{1,3}$/u.test(words[0]?.text ?? '')) return undefined;
  // Precision first: a single word the model calls a place only because of its context (Everest, Thames) may be a
  // surname or a product; a known city, country, region or address, or a name of several words, is a place.
  const known = terms.some((term) => term.tags.some((tag) => KNOWN_PLACE_TAGS.has(tag)));
  if (mode !== 'aggressive' && !known && words.length < 2) return undefined;
  return rangeOf(terms);
}

const CAPITALISED_RUN = /(?<![\p{L}\p{N}])\p{Lu}\p{Ll}+(?:[-']\p{Lu}\p{Ll}+)?(?:[ \t]+\p{Lu}\p{Ll}+(?:[-']\p{Lu}\p{Ll}+)?){1,2}(?![\p{L}\p{N}])/gu;
const LOOK_BACK = 40;

/**
 * Whether the word at `index` opens a sentence (where every word is capitalised): nothing or an end of sentence
 * before it, or only a Markdown marker (`#`, `-`, `1.`) on its line. A plain line break is a soft wrap, not a start.
 */
function opensSentence(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - LOOK_BACK), index);
  const trimmed = before.trimEnd();
  if (trimmed === '') return index <= LOOK_BACK || before.includes('\n');
  if (/[.!?:;]["')\]]*$/.test(trimmed)) return true;
  const line = before.slice(before.lastIndexOf('\n') + 1);
  return (before.includes('\n') || index <= LOOK_BACK) && /^[ \t]*(?:[#>*+-]+|\d+[.)])[ \t]+$/.test(line);
}

/** Two or three capitalised words, not opening a sentence, each one the model reads as a proper noun. */
function capitalisedNames(text: string, tagsAt: ReadonlyMap<number, string[]>): PiiSpan[] {
  const spans: PiiSpan[] = [];
  for (const match of text.matchAll(CAPITALISED_RUN)) {
    if (opensSentence(text, match.index)) continue;
    const words = [...match[0].matchAll(/\S+/g)];
    const names = words.every((word) => {
      const tags = tagsAt.get(match.index + word.index) ?? [];
      return !NOT_A_NAME.has(word[0]) && tags.includes('ProperNoun') && !tags.some((tag) => NON_NAME_TAGS.includes(tag));
    });
    if (names) spans.push({ start: match.index, end: match.index + match[0].length, entity: 'PERSON' });
  }
  return spans;
}
