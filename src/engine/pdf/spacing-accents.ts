/**
 * Accents drawn as glyphs of their own, apart from their letter: TeX sets `\u{g}` as a `g` and a breve placed over
 * it, which a text layer gives as two characters (`˘` U+02D8 and `g`, in either order). Each spacing accent and the
 * combining mark it stands for; a letter and its mark make one character only where Unicode has it composed.
 */
export const SPACING_ACCENTS: Readonly<Record<string, string>> = {
  '˘': '\u0306',
  '¨': '\u0308',
  '´': '\u0301',
  'ˆ': '\u0302',
  '˜': '\u0303',
  'ˇ': '\u030c',
  '˚': '\u030a',
  '˙': '\u0307',
  '¯': '\u0304',
  '˝': '\u030b',
};

/** Any spacing accent of SPACING_ACCENTS. */
export const SPACING_ACCENT = /[˘¨´ˆ˜ˇ˚˙¯˝]/u;

/** `letter` with `accent` over it as one character, or undefined where Unicode has no such letter (`l` and `¨`). */
export function composed(letter: string, accent: string): string | undefined {
  const mark = SPACING_ACCENTS[accent];
  if (mark === undefined) return undefined;
  const one = `${letter}${mark}`.normalize('NFC');
  return [...one].length === 1 ? one : undefined;
}
