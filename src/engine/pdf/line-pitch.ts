/**
 * The pitch a region's lines are set at, by type size: what a paragraph of one line is measured against. A
 * paragraph of two lines or more shows its own pitch, and a line further down than that begins another one; a
 * paragraph of one line shows none, and a line a little further down than the region's usual pitch (paragraphs
 * 0.25 cm apart in 12-pt type at 1.15 leading: 20.9 against 13.8 pt) read as the rest of it. Pure.
 */
import type { TextLine } from './types.js';
import { median } from './measure.js';

/** Lines whose sizes differ by at most this share are set in one type. */
const SAME_SIZE = 0.05;
/** Pitches, in ems, that lines of one paragraph can be set at. */
const MIN_PITCH_EM = 0.9;
const MAX_PITCH_EM = 2.2;
/** The fewest pairs of lines a pitch is taken from. */
const MIN_PAIRS = 3;

/**
 * For a type size, the middle of the pitches between the region's consecutive lines of that size (within
 * SAME_SIZE), counting only pitches a paragraph's lines can have; undefined where fewer than MIN_PAIRS show one.
 */
export function regionPitches(lines: readonly TextLine[]): (size: number) => number | undefined {
  const pairs: { size: number; pitch: number }[] = [];
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1]!;
    const line = lines[i]!;
    if (prev.zone || line.zone || Math.abs(line.size - prev.size) > SAME_SIZE * line.size) continue;
    const pitch = line.baseline - prev.baseline;
    if (pitch >= MIN_PITCH_EM * line.size && pitch <= MAX_PITCH_EM * line.size) pairs.push({ size: line.size, pitch });
  }
  const known = new Map<number, number | undefined>();
  return (size) => {
    if (known.has(size)) return known.get(size);
    const pitches = pairs.filter((pair) => Math.abs(pair.size - size) <= SAME_SIZE * size).map((pair) => pair.pitch);
    const pitch = pitches.length >= MIN_PAIRS ? median(pitches) : undefined;
    known.set(size, pitch);
    return pitch;
  };
}
