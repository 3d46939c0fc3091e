/**
 * A table's header set in the body's regular weight (a Korean report's shaded header row, its labels centred in
 * their cells over figures set flush right): a line of labels, no figure among them, over rows of figures. Told
 * apart from the body by what it holds, as a bold header is by its weight. Pure.
 */
import type { TextLine } from './types.js';

/** A figure as a table's cell holds it: `1,593,245`, `62.4`, `△434`, `-3.1%`. */
const FIGURE = /^[-+−△▲▼±]?[\d.,]+%?$/u;
/** Share of the body's rows that hold a figure. */
const FIGURE_ROWS = 0.8;

function isFigure(text: string): boolean {
  return FIGURE.test(text.trim());
}

/**
 * Whether the line is a header of labels (`급여 종류`, `2024년`, `비중`), none a figure, in the weight of the
 * body under it, most of whose rows hold figures.
 */
export function labelsOverFigures(line: TextLine, body: readonly TextLine[]): boolean {
  if (line.bold || body.length === 0 || line.cells.some((cell) => isFigure(cell.text))) return false;
  const withFigures = body.filter((row) => !row.bold && row.cells.some((cell) => isFigure(cell.text))).length;
  return withFigures >= FIGURE_ROWS * body.length;
}
