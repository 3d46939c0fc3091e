/**
 * A bold run-in lead before Latin text, told by the glyphs' codes: a paper's `Abstract — We study …` or
 * `Abstract. We …`, a label in bold before its paragraph's regular words. LiteParse names the line's one item after
 * its first font, so the whole first line reads as bold and the paragraph breaks after it. Where the word boxes
 * are cut to each word's glyphs their heights cannot say where the lead ends (page-items.ts); the codes can, as
 * for Hangul (glyph-code-leads.ts): a word processor numbers each font's glyphs apart, so the regular words are
 * drawn with the codes the page's regular runs draw their letters with, and the lead's letters mostly with others.
 * Pure.
 */
import { codesPerUnit, regularCodes, type RegularCodes } from './glyph-code-leads.js';
import type { NativeTextItem } from './page-items.js';

/** Most words in a lead (`Abstract`, `Index Terms`, `Key words:`). */
const MAX_LEAD_WORDS = 3;
/** Letters after the lead drawn with the regular type's codes, at least, before the lead is told. */
const MIN_FOLLOWER_MATCHES = 6;

/** Latin letters (basic and Latin-1), whose glyphs a word processor numbers per font. */
function isLetter(unit: number): boolean {
  return (unit >= 0x41 && unit <= 0x5a) || (unit >= 0x61 && unit <= 0x7a) || (unit >= 0xc0 && unit <= 0xff && unit !== 0xd7 && unit !== 0xf7);
}

/** The codes the page's runs in regular type draw their Latin letters with. */
export function regularLetterCodes(items: readonly NativeTextItem[]): RegularCodes {
  return regularCodes(items, isLetter);
}

/** Where a bold item's lead ends: after `words` whole words, and `cut` units into the next where it ends inside it. */
export interface LetterLead {
  words: number;
  /** The lead run into the next word (`Abstract—We`): how many of that word's units are the lead's. */
  cut?: number;
}

/**
 * Where a word drawn partly in the lead's codes and then in the regular type's ends its lead part: at the first
 * letter in the regular codes, where every known letter before it is drawn otherwise and every one from it on is
 * drawn so (`Abstract—We`). Undefined where the word is not so cut.
 */
function cutInWord(text: string, codes: readonly number[], at: number, regular: RegularCodes): number | undefined {
  let firstMatch = -1;
  let others = 0;
  for (let i = at; i < at + text.length; i++) {
    const known = regular.get(text.charCodeAt(i - at));
    if (!known) continue;
    if (known.has(codes[i]!)) {
      if (firstMatch < 0) firstMatch = i - at;
    } else if (firstMatch >= 0) return undefined;
    else others++;
  }
  return others > 0 && firstMatch > 0 ? firstMatch : undefined;
}

/**
 * Where a bold item's lead ends among its first words (`texts`, in order in its text): after words whose letters are
 * mostly drawn otherwise than the regular type draws them, up to MAX_LEAD_WORDS, or inside a word drawn so and then
 * with the regular codes, before words all drawn with the regular type's codes to the item's end. The whole item
 * (`count` words) when the codes do not say so.
 */
export function leadBeforeRegularLetters(item: NativeTextItem, texts: readonly string[], count: number, regular: RegularCodes): LetterLead {
  const whole = { words: count };
  const codes = codesPerUnit(item);
  if (!codes || regular.size === 0) return whole;
  let lead = 0;
  let cut: number | undefined;
  let followerMatches = 0;
  let from = 0;
  for (let w = 0; w < count; w++) {
    const at = item.text.indexOf(texts[w]!, from);
    if (at < 0) return whole;
    from = at + texts[w]!.length;
    let match = 0;
    let other = 0;
    for (let i = at; i < from; i++) {
      const known = regular.get(item.text.charCodeAt(i));
      if (!known) continue;
      if (known.has(codes[i]!)) match++;
      else other++;
    }
    if (w === lead && cut === undefined) {
      cut = cutInWord(texts[w]!, codes, at, regular);
      if (cut !== undefined) {
        followerMatches += match;
        continue;
      }
      if (other > match) {
        lead++;
        if (lead > MAX_LEAD_WORDS) return whole;
        continue;
      }
    }
    // After the lead, every word in the regular type's codes.
    if ((lead === 0 && cut === undefined) || other > 0) return whole;
    followerMatches += match;
  }
  if (followerMatches < MIN_FOLLOWER_MATCHES || (lead === 0 && cut === undefined)) return whole;
  return cut === undefined ? { words: lead } : { words: lead, cut };
}
