/** Text set ragged right for the generated PDFs of the tests: pdf-lib's font metrics decide where a line ends. */
import type { PDFFont } from 'pdf-lib';

/** The words of `text` in lines at most `width` points wide in `font` at `size`, as a ragged-right setting breaks them. */
export function raggedLines(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const longer = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(longer, size) > width) {
      lines.push(line);
      line = word;
    } else line = longer;
  }
  return [...lines, line];
}
