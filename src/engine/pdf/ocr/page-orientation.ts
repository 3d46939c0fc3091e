/**
 * Which way a scanned page's text runs. A scan is often turned: a landscape page fed the other way, a page turned
 * upside down, a page a viewer is told to turn (`/Rotate`) over a scan that was upright. Tesseract reads such a
 * page as short, unsure marks. When the upright reading is that unsure, the page is read at half the resolution
 * each way round and the way that reads most, and surely, wins (tesseract's own orientation model is not shipped).
 */
import type { Turn } from '../page-turns.js';
import type { OcrLine } from './ocr-line.js';
import type { GreyBitmap } from './render-page.js';

/**
 * At or above this mean confidence (by letters) a reading is upright enough: an upright page of text reads at 0.9
 * and more, the same page turned a quarter at 0.5 or less, upside down at about 0.2.
 */
const UPRIGHT_CONFIDENCE = 0.7;
/** Fewer letters than this say nothing of the page's way round (a blank page, a stamp): it stays as it is. */
const MIN_LETTERS = 10;
/** Another way round wins where it reads this many times the upright way's sure letters. */
const BETTER_BY = 1.5;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/gu;

/** The reading's letters and digits, and their sum weighted by their words' confidence. */
function letterScore(lines: readonly OcrLine[]): { letters: number; sure: number } {
  let letters = 0;
  let sure = 0;
  for (const line of lines) {
    for (const word of line.words) {
      const n = word.text.match(LETTER_OR_DIGIT)?.length ?? 0;
      letters += n;
      sure += n * word.confidence;
    }
  }
  return { letters, sure };
}

/** Whether a reading says the page is upright, or says too little to tell. */
export function readsUpright(lines: readonly OcrLine[]): boolean {
  const { letters, sure } = letterScore(lines);
  return letters < MIN_LETTERS || sure >= UPRIGHT_CONFIDENCE * letters;
}

/** The bitmap turned so that text running `turn` degrees clockwise in it reads left to right. */
export function turnBitmap(bitmap: GreyBitmap, turn: Turn): GreyBitmap {
  if (turn === 0) return bitmap;
  const { width, height, pixels } = bitmap;
  const quarter = turn !== 180;
  const turnedWidth = quarter ? height : width;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      // Where the pixel (x, y) goes: the same mapping as page-turns.ts's turnBox.
      const to = turn === 90 ? (width - 1 - x) * turnedWidth + y : turn === 180 ? (height - 1 - y) * width + (width - 1 - x) : x * turnedWidth + (height - 1 - y);
      out[to] = pixels[row + x]!;
    }
  }
  return { ...bitmap, width: turnedWidth, height: quarter ? width : height, pixels: out };
}

/** The bitmap at half its resolution, each pixel the mean of four. */
function halved(bitmap: GreyBitmap): GreyBitmap {
  const width = bitmap.width >> 1;
  const height = bitmap.height >> 1;
  const { pixels } = bitmap;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const top = 2 * y * bitmap.width;
    const bottom = top + bitmap.width;
    for (let x = 0; x < width; x++) {
      const i = 2 * x;
      out[y * width + x] = (pixels[top + i]! + pixels[top + i + 1]! + pixels[bottom + i]! + pixels[bottom + i + 1]! + 2) >> 2;
    }
  }
  return { ...bitmap, width, height, pixels: out, scale: bitmap.scale / 2 };
}

/**
 * Which way the page's text runs, read each way round at half the resolution: the way whose reading holds the most
 * sure letters, where it holds `BETTER_BY` times the upright way's; else 0.
 */
export async function scanTurn(bitmap: GreyBitmap, recognise: (bitmap: GreyBitmap) => Promise<OcrLine[]>): Promise<Turn> {
  const small = halved(bitmap);
  const upright = letterScore(await recognise(small)).sure;
  let best: Turn = 0;
  let bestSure = upright * BETTER_BY;
  for (const turn of [90, 270, 180] as const) {
    const { sure } = letterScore(await recognise(turnBitmap(small, turn)));
    if (sure > bestSure) {
      best = turn;
      bestSure = sure;
    }
  }
  return best;
}
