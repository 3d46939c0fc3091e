/**
 * One glyph, several characters, right to left. A PDF draws a right-to-left line's glyphs from left to right, and
 * a text reader gathers their characters in that (visual) order, then reverses the line into logical order. A
 * glyph that stands for several characters maps to them in logical order already: Arabic's lam-alef ligature
 * ("لا", in every Arabic font, wherever lam meets alef), a word ligature ("ﷲ", "الله"), a letter with its marks.
 * Reversed with the line, they come out backwards: "المشكالت" for "المشكلات", "خالل" for "خلال". Reversed once
 * more as the glyph is read, they come out right (what PDFBox and pypdf do, and pdf.js did once: `reverseIfRtl`).
 *
 * pdfjs's text pass calls this for each glyph whose text is more than one character, or one from U+FB1D on (the
 * presentation forms), through the patched worker (pdfjs-worker.ts, `rtl-glyph-order`).
 */

/** Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic, and the Hebrew and Arabic presentation forms. */
function isRightToLeft(code: number): boolean {
  return (code >= 0x0590 && code <= 0x08ff) || (code >= 0xfb1d && code <= 0xfdff) || (code >= 0xfe70 && code <= 0xfefc);
}

/**
 * A presentation form that is a ligature of several letters (lam-alef U+FEF5..U+FEFC, "ﷲ", the Arabic ligatures of
 * U+FC00..U+FDFF): its letters, as Unicode's compatibility decomposition gives them. pdfjs expands some of them
 * itself, but after gathering the line, where they too would come out backwards; others it leaves as one
 * character, which no search for the letters finds.
 */
function ligatureLetters(text: string): string {
  if (text.length !== 1) return text;
  const letters = text.normalize('NFKC');
  return letters.length > 1 ? letters : text;
}

/**
 * The text of one glyph, in the order pdfjs's reversal of a right-to-left line needs: its characters reversed
 * when it stands for several and they are of a right-to-left script; else as it is.
 */
export function rtlGlyphText(text: string): string {
  if (!isRightToLeft(text.charCodeAt(0))) return text;
  const letters = ligatureLetters(text);
  if (letters.length < 2) return text;
  let reversed = '';
  for (let i = letters.length - 1; i >= 0; i--) reversed += letters[i];
  return reversed;
}
