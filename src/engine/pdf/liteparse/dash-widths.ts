/**
 * Dashes LiteParse writes as hyphens. Its text gives every en dash and em dash as `-` (`alpha — beta` reads
 * `alpha - beta`, whatever the font and its encoding), and a minus sign too. A dash alone next to a word of prose
 * says which it is by its width: an em dash 700 to 1000 units of the em wide (Lora's 700, Helvetica's and Times'
 * 1000), an en dash 500 to 556, a hyphen 278 to 333. Between numbers or in a line of mathematics the same glyph
 * is as likely a minus (TeX's is 778 units wide): it stays as LiteParse gives it. Inside a word (`2019–2020`) a
 * dash has no width of its own here: its glyph's code tells it, where the same font draws a dash alone with that
 * code (dashCodesOf). Pure.
 */

/** Wider than this share of the em, a dash alone is an em dash; wider than EN_DASH, an en dash. */
const EM_DASH = 0.62;
const EN_DASH = 0.44;
/**
 * The minus sign's widths in the two families most text is set in, Times (564 units: Nimbus Roman, Liberation
 * Serif) and Helvetica (584: Arial, Nimbus Sans, Liberation Sans), between their en dashes (500, 556) and em dashes:
 * a dash of that width is a minus, which LiteParse writes as the hyphen-minus it mostly stands for (a man page's
 * `ls − list`, `C−style`, `−−all`, groff drawing every `\-` so). Their en dashes stand 0.008 em and more away.
 */
const MINUS_WIDTHS = [0.564, 0.584];
const MINUS_WIDTH_SLACK = 0.003;

/**
 * A word of prose: two letters or more (a lone letter may be a variable), quotes, a bracket and stops round them,
 * no digit or symbol inside (`Q(h)`, `|p`).
 */
const PROSE_WORD = /^['‘"“(]*\p{L}[\p{L}\p{M}'’-]*\p{L}[.,;:!?'’"”)]*$/u;
/** Mathematics on the line: an operator or a relation. */
const MATHEMATICS = /[=+<>×÷±∓∑∏∫√≤≥≈≠∈∂∇]/u;

/**
 * `words[i]`'s text, a lone hyphen as the dash its width shows where it stands between two words, one of them of
 * prose, in a line (`line`, the item's text) without mathematics.
 */
export function dashByWidth(words: readonly string[], i: number, width: number, size: number, line: string): string {
  const text = words[i]!;
  if (text !== '-' || !(size > 0)) return text;
  const ems = width / size;
  if (ems <= EN_DASH || MINUS_WIDTHS.some((minus) => Math.abs(ems - minus) <= MINUS_WIDTH_SLACK)) return text;
  const before = words[i - 1];
  const after = words[i + 1];
  if (!before || !after || !(PROSE_WORD.test(before) || PROSE_WORD.test(after)) || MATHEMATICS.test(line)) return text;
  return ems > EM_DASH ? '—' : '–';
}

/** A box this share of its neighbours' height or less holds type smaller than theirs (a code span's 85 %). */
const SMALLER_BOX = 0.95;
/** Boxes within this share of each other are one type's full height. */
const SAME_BOX = 0.01;

/**
 * Whether `boxes[i]` is set in smaller type than the words either side of it, whose boxes are alike: asked only of
 * items whose boxes are their fonts' full height (where boxes are cut to each glyph, a dash's is shorter than a
 * word's whatever its type). Such a word is a code span in running text, which LiteParse joins into the text's item
 * (a web page's `with - (standard input)`, the code in 85 % type): its lone hyphen, a monospaced pitch wide, reads
 * as an en dash of the text's font, and its glyph's code (a glyph index, which both fonts may give their hyphen)
 * would teach that font a dash it does not draw.
 */
export function inSmallerType(boxes: readonly { height: number }[], i: number): boolean {
  const before = boxes[i - 1]?.height;
  const after = boxes[i + 1]?.height;
  const own = boxes[i]?.height;
  if (before === undefined || after === undefined || own === undefined || !(before > 0)) return false;
  return Math.abs(before - after) <= SAME_BOX * before && own <= SMALLER_BOX * before;
}

/** Dashes, which LiteParse's table cells give as hyphens. */
const DASHES = /[–—]/gu;

/** `text` as LiteParse writes it, its dashes hyphens: what docmill's items read is compared so with its cells. */
export function withDashesAsHyphens(text: string): string {
  return text.replace(DASHES, '-');
}

/** Code → dash drawn, for the fonts whose dashes between words of prose showed them. */
export type DashCodes = ReadonlyMap<string, ReadonlyMap<number, string>>;

interface DashItem {
  text: string;
  fontName?: string | undefined;
  words?: readonly { text: string; width: number; height: number }[] | undefined;
}

/**
 * The glyph codes a document's fonts draw their en and em dashes with, learnt from dashes alone between words of
 * prose (dashByWidth): LiteParse writes a dash inside a word (`2019–2020`, `Mann–Whitney`) as a hyphen too, and its
 * code, the one the same font's dash between words is drawn with, says which it is. A code seen drawing a hyphen as
 * well is left out. `codesOf`: the item's codes, one per unit of its text.
 */
export function dashCodesOf<Item extends DashItem>(
  pages: readonly { textItems: readonly Item[] }[],
  codesOf: (item: Item) => readonly number[] | undefined,
  sizeOf: (item: Item) => number,
  /** Whether the item's word boxes are its fonts' full height (see inSmallerType). */
  fullHeight: (item: Item) => boolean,
): DashCodes {
  const seen = new Map<string, Map<number, Set<string>>>();
  for (const page of pages) {
    for (const item of page.textItems) {
      if (!item.words || !item.text.includes('-')) continue;
      const codes = codesOf(item);
      if (!codes) continue;
      const texts = item.words.map((word) => word.text.trim());
      let at = 0;
      texts.forEach((text, i) => {
        const found = item.text.indexOf(text, at);
        if (found < 0) return;
        at = found + text.length;
        if (text !== '-' || (fullHeight(item) && inSmallerType(item.words!, i))) return;
        const dash = dashByWidth(texts, i, item.words![i]!.width, sizeOf(item), item.text);
        const font = item.fontName ?? '';
        let byCode = seen.get(font);
        if (!byCode) seen.set(font, (byCode = new Map()));
        let drawn = byCode.get(codes[found]!);
        if (!drawn) byCode.set(codes[found]!, (drawn = new Set()));
        drawn.add(dash);
      });
    }
  }
  const out = new Map<string, Map<number, string>>();
  for (const [font, byCode] of seen) {
    for (const [code, drawn] of byCode) {
      const [dash] = drawn;
      if (drawn.size !== 1 || dash === '-' || dash === undefined) continue;
      let codes = out.get(font);
      if (!codes) out.set(font, (codes = new Map()));
      codes.set(code, dash);
    }
  }
  return out;
}

/**
 * `words[i]` with its dashes read: alone next to a word of prose, by its width (dashByWidth); inside the word (found at
 * unit `at` of the item's text `line`), by its code, where the font's codes are known (`codes`, `dashes`).
 */
export function wordWithDashes(
  words: readonly string[],
  i: number,
  width: number,
  size: number,
  line: string,
  at: number,
  codes: readonly number[] | undefined,
  dashes: ReadonlyMap<number, string> | undefined,
): string {
  const alone = dashByWidth(words, i, width, size, line);
  return codes && dashes ? withCodedDashes(alone, at, codes, dashes) : alone;
}

/** `word` (found at unit `at` of its item's text) with each hyphen whose code `dashes` names as that dash. */
export function withCodedDashes(word: string, at: number, codes: readonly number[], dashes: ReadonlyMap<number, string>): string {
  if (word.length < 2 || !word.includes('-') || at < 0) return word;
  let out = '';
  for (let i = 0; i < word.length; i++) out += word[i] === '-' ? (dashes.get(codes[at + i]!) ?? '-') : word[i];
  return out;
}
