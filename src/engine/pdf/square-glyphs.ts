/**
 * Hangul syllables and jamo, Han characters and kana: scripts whose every glyph fills most of the em square. A word
 * of them is as wide as its characters, a full em each, and its box as high as the em, whatever its letters.
 */
export const SQUARE_GLYPHS = /[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;
