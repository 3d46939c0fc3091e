/**
 * What OCR read off a picture, remembered by the picture's bytes: the same image file read again in the same
 * languages, the same way, is not given to tesseract a second time. A letterhead or a logo with its company's name
 * on every page of a report, or on every invoice of a batch, is read once by a set of workers (tesseract.ts: the
 * engine pool's, shared by its threads, or a thread's own). tesseract reads an image the same way each time (its
 * LSTM recogniser keeps nothing from one image to the next), so the answer is the one it would give. Readings under
 * way are shared too: a second page with the picture waits for the first's. The picture must be drawn alike: the
 * same logo placed elsewhere on a page renders to other pixels, and is read again.
 *
 * Bounded by the pictures and by the words remembered (a full page of text is some hundreds of words, a logo a
 * few), the least recently used forgotten first; a reading that failed is not remembered.
 */
import { createHash } from 'node:crypto';
import type { OcrLine } from './ocr-line.js';

/** At most this many pictures... */
const PICTURES = 512;
/** ...and this many words over all of them (about 2 MB of lines). */
const WORDS = 20_000;

interface Remembered {
  reading: Promise<OcrLine[]>;
  /** Its words, once read (0 before). */
  words: number;
}

export class RecognitionMemo {
  readonly #remembered = new Map<string, Remembered>();
  #words = 0;

  constructor(
    private readonly pictures = PICTURES,
    private readonly words = WORDS,
  ) {}

  /** The lines of `image` read in `languages` with `invert`: remembered ones, else `read()`'s, then remembered. */
  async recognise(image: Uint8Array, languages: string, invert: boolean, read: () => Promise<OcrLine[]>): Promise<OcrLine[]> {
    const key = `${languages}\u0000${invert ? 1 : 0}\u0000${createHash('sha256').update(image).digest('base64')}`;
    let entry = this.#remembered.get(key);
    if (entry) {
      // Used now: the last to be forgotten.
      this.#remembered.delete(key);
      this.#remembered.set(key, entry);
    } else {
      const fresh: Remembered = { reading: read(), words: 0 };
      entry = fresh;
      this.#remembered.set(key, fresh);
      fresh.reading.then(
        (lines) => {
          if (this.#remembered.get(key) !== fresh) return;
          fresh.words = lines.reduce((sum, line) => sum + line.words.length, 0);
          this.#words += fresh.words;
          this.#forgetBeyondBounds();
        },
        () => {
          if (this.#remembered.get(key) === fresh) this.#remembered.delete(key);
        },
      );
      this.#forgetBeyondBounds();
    }
    // Each caller gets lines of its own: the layout may move or drop words.
    return structuredClone(await entry.reading);
  }

  #forgetBeyondBounds(): void {
    for (const [key, entry] of this.#remembered) {
      if (this.#remembered.size <= this.pictures && this.#words <= this.words) return;
      this.#remembered.delete(key);
      this.#words -= entry.words;
    }
  }
}
