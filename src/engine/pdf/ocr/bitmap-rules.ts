/**
 * Ruled lines in a rendered page or image region: table borders, form lines and separators, found as long, thin
 * runs of dark pixels, across or down. They are taken out of the bitmap before OCR and handed to the layout as
 * rules. tesseract reads a ruled table far worse with its grid in place: it takes the borders for letters or the
 * grid for a picture, and drops whole rows. Without the grid it reads every cell, faster. The layout then builds
 * the table from those rules, as it does from a text page's vector rules (ruled-tables.ts). Pure apart from
 * whitening the bitmap's pixels.
 */
import type { Ruling } from '../rulings.js';
import type { GreyBitmap } from './render-page.js';

/** Darker than this is ink (anti-aliased hairlines render mid-grey at 150 DPI). */
const INK = 160;
/** A rule is at least this long (pt): a cell's border, not a glyph's stroke (a 10 pt letter's stem is about 7). */
const MIN_RULE_LENGTH = 24;
/** A rule is at most this thick (pt): a title's stems are thicker than this, body text's are shorter. */
const MAX_RULE_THICKNESS = 2;
/** The share of a run's pixels that must be thin: crossings with rules the other way (or a letter) are not. */
const THIN_SHARE = 0.8;
/** The most rules a bitmap gives: more is hatching or a photo's texture, not a grid. */
const MAX_RULES = 2_000;

interface Run {
  /** The row (a horizontal run) or column (a vertical one). */
  at: number;
  from: number;
  /** Exclusive. */
  to: number;
}

/** Runs of ink along rows at least `minLength` pixels long (a rule's rows, and any large dark area's), row by row. */
function longRunsAcross(pixels: Uint8Array, width: number, height: number, minLength: number): Run[] {
  const runs: Run[] = [];
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let start = -1;
    for (let x = 0; x <= width; x++) {
      if (x < width && pixels[row + x]! < INK) {
        if (start < 0) start = x;
      } else if (start >= 0) {
        if (x - start >= minLength) runs.push({ at: y, from: start, to: x });
        start = -1;
      }
    }
  }
  return runs;
}

/**
 * Runs of ink down columns at least `minLength` pixels long, read row by row (the bitmap's order in memory) with a
 * count per column; sorted by column, then top.
 */
function longRunsDown(pixels: Uint8Array, width: number, height: number, minLength: number): Run[] {
  const runs: Run[] = [];
  const length = new Int32Array(width);
  for (let y = 0; y <= height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (y < height && pixels[row + x]! < INK) length[x]!++;
      else if (length[x]! > 0) {
        if (length[x]! >= minLength) runs.push({ at: x, from: y - length[x]!, to: y });
        length[x] = 0;
      }
    }
  }
  return runs.sort((p, q) => p.at - q.at || p.from - q.from);
}

/**
 * Whether most of a run's pixels are thin across it: the ink through the pixel, across the run, is at most
 * `maxThickness` pixels. A rule's pixels are, but where other rules or letters cross it; a dark area's are not.
 */
function mostlyThin(pixels: Uint8Array, width: number, height: number, run: Run, maxThickness: number, horizontal: boolean): boolean {
  const lines = horizontal ? height : width;
  const ink = (line: number, i: number) => line >= 0 && line < lines && pixels[horizontal ? line * width + i : i * width + line]! < INK;
  // Given up as soon as too many pixels are thick: a dark area's rows are long runs, each given up at its start.
  const allowedThick = (1 - THIN_SHARE) * (run.to - run.from);
  let thick = 0;
  for (let i = run.from; i < run.to; i++) {
    let thickness = 1;
    for (let line = run.at - 1; thickness <= maxThickness && ink(line, i); line--) thickness++;
    for (let line = run.at + 1; thickness <= maxThickness && ink(line, i); line++) thickness++;
    if (thickness > maxThickness && ++thick > allowedThick) return false;
  }
  return true;
}

/** Runs on neighbouring rows (columns) that overlap along them, joined into one rule each: [at0, at1, from, to]. */
function joinRuns(runs: readonly Run[]): [number, number, number, number][] {
  const rules: [number, number, number, number][] = [];
  // Runs come row by row; a rule is open while its last row is the row before.
  let open: [number, number, number, number][] = [];
  for (const run of runs) {
    const rule = open.find((r) => r[1] >= run.at - 1 && r[1] < run.at && r[2] < run.to && run.from < r[3]);
    if (rule) {
      rule[1] = run.at;
      rule[2] = Math.min(rule[2], run.from);
      rule[3] = Math.max(rule[3], run.to);
      continue;
    }
    open = open.filter((r) => {
      if (r[1] >= run.at - 1) return true;
      rules.push(r);
      return false;
    });
    open.push([run.at, run.at, run.from, run.to]);
  }
  for (const r of open) rules.push(r);
  return rules;
}

/** Whitens a run's pixels, and the paler pixels beside it (its anti-aliased edge). */
function whiten(pixels: Uint8Array, width: number, height: number, run: Run, horizontal: boolean): void {
  const lines = horizontal ? height : width;
  const index = (line: number, i: number) => (horizontal ? line * width + i : i * width + line);
  const paler = (line: number, i: number) => {
    if (line >= 0 && line < lines && pixels[index(line, i)]! >= INK) pixels[index(line, i)] = 255;
  };
  for (let i = run.from; i < run.to; i++) {
    pixels[index(run.at, i)] = 255;
    paler(run.at - 1, i);
    paler(run.at + 1, i);
  }
}

/**
 * Finds the ruled lines of `bitmap`, whitens them in its pixels, and returns them as rules in page units
 * (viewport space, as the text layer's: `bitmap.scale` pixels a point from `bitmap.origin`).
 */
export function takeRules(bitmap: GreyBitmap): Ruling[] {
  const { width, height, pixels, scale, origin } = bitmap;
  const minLength = Math.max(8, Math.round(MIN_RULE_LENGTH * scale));
  const maxThickness = Math.max(2, Math.round(MAX_RULE_THICKNESS * scale));
  if (width < minLength && height < minLength) return [];
  const across = longRunsAcross(pixels, width, height, minLength).filter((run) => mostlyThin(pixels, width, height, run, maxThickness, true));
  const down = longRunsDown(pixels, width, height, minLength).filter((run) => mostlyThin(pixels, width, height, run, maxThickness, false));
  const rules: Ruling[] = [];
  for (const [y0, y1, x0, x1] of joinRuns(across)) {
    const y = origin.y + (y0 + y1 + 1) / 2 / scale;
    rules.push({ x0: origin.x + x0 / scale, y0: y, x1: origin.x + x1 / scale, y1: y });
  }
  for (const [x0, x1, y0, y1] of joinRuns(down)) {
    const x = origin.x + (x0 + x1 + 1) / 2 / scale;
    rules.push({ x0: x, y0: origin.y + y0 / scale, x1: x, y1: origin.y + y1 / scale });
  }
  // A page of hatching or a photo's texture is no grid: its pixels are left for OCR as they are.
  if (rules.length > MAX_RULES) return [];
  for (const run of across) whiten(pixels, width, height, run, true);
  for (const run of down) whiten(pixels, width, height, run, false);
  return rules;
}
