/**
 * Text set in the Symbol font that the PDF writes at the private-use code points of the font's 8-bit codes
 * (U+F020–U+F0FF, Windows' convention, which Word follows for Greek letters and operators inserted from Symbol:
 * `p \uF0A3 0.05`, `5 \uF06Dg`), read as the characters the Symbol encoding gives those codes (`p ≤ 0.05`, `5 μg`).
 * Only in a font named Symbol (`SymbolMT`, `ABCDEF+Symbol`), whose encoding is known: OpenSymbol's and StarSymbol's
 * private-use glyphs are other ones, and a code the encoding leaves empty, or gives a piece of a large bracket,
 * stays as it is. Pure.
 */
/** The Symbol encoding from 0x20 to 0xFE, a character per code ('' where it has none that reads alone). */
const SYMBOL_ENCODING: readonly string[] = [
  // 0x20–0x3F
  ' ', '!', '∀', '#', '∃', '%', '&', '∋', '(', ')', '∗', '+', ',', '−', '.', '/',
  '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', ':', ';', '<', '=', '>', '?',
  // 0x40–0x5F
  '≅', 'Α', 'Β', 'Χ', 'Δ', 'Ε', 'Φ', 'Γ', 'Η', 'Ι', 'ϑ', 'Κ', 'Λ', 'Μ', 'Ν', 'Ο',
  'Π', 'Θ', 'Ρ', 'Σ', 'Τ', 'Υ', 'ς', 'Ω', 'Ξ', 'Ψ', 'Ζ', '[', '∴', ']', '⊥', '_',
  // 0x60–0x7E (0x60: a radical's extender)
  '', 'α', 'β', 'χ', 'δ', 'ε', 'φ', 'γ', 'η', 'ι', 'ϕ', 'κ', 'λ', 'μ', 'ν', 'ο',
  'π', 'θ', 'ρ', 'σ', 'τ', 'υ', 'ϖ', 'ω', 'ξ', 'ψ', 'ζ', '{', '|', '}', '∼', '',
  // 0x80–0x9F: none
  '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '',
  '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '',
  // 0xA0–0xBF (0xBD, 0xBE: arrow extenders)
  '€', 'ϒ', '′', '≤', '⁄', '∞', 'ƒ', '♣', '♦', '♥', '♠', '↔', '←', '↑', '→', '↓',
  '°', '±', '″', '≥', '×', '∝', '∂', '•', '÷', '≠', '≡', '≈', '…', '', '', '↵',
  // 0xC0–0xDF
  'ℵ', 'ℑ', 'ℜ', '℘', '⊗', '⊕', '∅', '∩', '∪', '⊃', '⊇', '⊄', '⊂', '⊆', '∈', '∉',
  '∠', '∇', '®', '©', '™', '∏', '√', '⋅', '¬', '∧', '∨', '⇔', '⇐', '⇑', '⇒', '⇓',
  // 0xE0–0xFE (the pieces of large brackets and integrals left as they are)
  '◊', '〈', '®', '©', '™', '∑', '', '', '', '', '', '', '', '', '', '',
  '', '〉', '∫', '', '', '', '', '', '', '', '', '', '', '', '',
];

const SYMBOL_FONT = /(?:^|\+)Symbol/i;
const SYMBOL_CODE = /[\uf020-\uf0fe]/;

/** Whether a font's name names the Symbol font (`SymbolMT`, `ABCDEF+Symbol`; not OpenSymbol nor StarSymbol). */
export function isSymbolFontName(name: string | null | undefined): boolean {
  return name !== null && name !== undefined && SYMBOL_FONT.test(name);
}

/** `text` set in the Symbol font, its private-use code points read as the encoding's characters. */
export function symbolFontText(text: string): string {
  if (!SYMBOL_CODE.test(text)) return text;
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    const mapped = code >= 0xf020 && code <= 0xf0fe ? SYMBOL_ENCODING[code - 0xf020] : undefined;
    out += mapped ? mapped : char;
  }
  return out;
}
