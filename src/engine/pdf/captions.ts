/**
 * Captions: the label that starts a figure's or a table's caption ("Figure 3:", "Table 2.1.", "Fig. 4 |",
 * "그림 1", "<표 2>"). A caption is its own block, never a heading and never run into the paragraph around it.
 */

/** Latin-script labels: the word, a number (`3`, `2.1`, `A1`, `4b`), then punctuation, as sentences do not. */
const LATIN_CAPTION =
  /^(?:Table|Tab\.|Figure|Fig\.|Listing|Algorithm|Chart|Graph|Diagram|Scheme|Exhibit|Plate)\s*[A-Z]?\d+(?:[.-]\d+)*[a-z]?\s*[:.|—–]/iu;
/** Korean labels (그림 figure, 표 table, 도표 chart, 사진 photo), bracketed or not, then a space or punctuation. */
const KOREAN_CAPTION = /^[<[(〈]?\s*(?:그림|표|도표|사진)\s*\d+(?:[.-]\d+)*\s*[>\])〉]?(?:\s|[:.]|$)/u;

export function isCaptionText(text: string): boolean {
  const trimmed = text.trimStart();
  return LATIN_CAPTION.test(trimmed) || KOREAN_CAPTION.test(trimmed);
}

/** A table's caption label (`Table 2:`, `Tab. 3.`, `<표 1>`): a caption over a table, not a figure's. */
const TABLE_LABEL = /^(?:[<[(〈]?\s*표|Table|Tab\.)/iu;

export function isTableCaptionText(text: string): boolean {
  return isCaptionText(text) && TABLE_LABEL.test(text.trimStart());
}
