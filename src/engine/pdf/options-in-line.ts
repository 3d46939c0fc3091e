/**
 * Options set side by side on one line, each opening with the next enumerator of one sequence: an exam's
 * `(a) oxygen   (b) nitrogen   (c) carbon dioxide   (d) helium`, short steps `1. Cut  2. Fold  3. Glue`. Read as one
 * item they ran together (`(a) oxygen (b) nitrogen …`); each is an item of its own, as when set one under another.
 * Pure.
 */

/** What the enumerators are read from: a number, or a letter or roman label as written (`(b)`, `c.`). */
interface Enumerator {
  number?: number;
  label?: string;
}

/** The enumerator's place in its sequence: its number, or its letter's place in the alphabet. */
function ordinal(marker: Enumerator): number | undefined {
  if (marker.number !== undefined) return marker.number;
  const letter = /^\(?([a-z])[.)]$/u.exec(marker.label ?? '');
  return letter ? letter[1]!.charCodeAt(0) - 'a'.charCodeAt(0) + 1 : undefined;
}

/**
 * Whether the markers of a line's cells (in reading order; null where a cell opens with none) are options side by
 * side: two or more, every cell opening with one, of one kind (numbers or letters, written alike) and each the next
 * of the one before.
 */
export function areOptionsInLine(markers: readonly (Enumerator | null)[]): boolean {
  if (markers.length < 2 || markers.some((marker) => marker === null)) return false;
  const shape = (marker: Enumerator) => (marker.number !== undefined ? 'number' : (marker.label ?? '').replace(/[a-z]/u, 'x'));
  const first = markers[0]!;
  const start = ordinal(first);
  if (start === undefined) return false;
  return markers.every((marker, i) => shape(marker!) === shape(first) && ordinal(marker!) === start + i);
}
