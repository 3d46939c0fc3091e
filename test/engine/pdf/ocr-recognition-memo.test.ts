/**
 * A picture OCR has read is not read again: the same image bytes in the same languages, read the same way, are
 * answered from memory, each caller with lines of its own; a document with its logo on every page asks tesseract
 * once and still gets the picture's text on every page, at its place.
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { OcrLine } from '../../../src/engine/pdf/ocr/ocr-line.js';
import { RecognitionMemo } from '../../../src/engine/pdf/ocr/recognition-memo.js';
import { terminateOcrWorkers } from '../../../src/engine/pdf/ocr/tesseract.js';
import { allBlocks, convertBytes } from './helpers.js';
import { mixedPdf, pictureOfText } from './image-pdfs.js';

afterAll(() => terminateOcrWorkers());
afterEach(() => vi.restoreAllMocks());

const line = (text: string): OcrLine => ({
  words: [{ text, x0: 0, y0: 0, x1: 10, y1: 10, confidence: 0.9 }],
  baseline: { x0: 0, y0: 10, x1: 10, y1: 10 },
  rowHeight: 10,
  rtl: false,
});

/** A reader that answers with the image's first byte as text, counting the images it is given. */
function countingReader() {
  const read: number[] = [];
  return {
    read,
    reader: (image: Uint8Array) => async () => {
      read.push(image[0]!);
      return [line(`picture ${image[0]}`)];
    },
  };
}

describe('RecognitionMemo', () => {
  it('reads an image once for the same languages and way, again for other ones, and shares a reading under way', async () => {
    const memo = new RecognitionMemo();
    const { read, reader } = countingReader();
    const logo = new Uint8Array([1, 2, 3]);
    const [first, second] = await Promise.all([
      memo.recognise(logo, 'eng', true, reader(logo)),
      memo.recognise(new Uint8Array([1, 2, 3]), 'eng', true, reader(logo)),
    ]);
    expect(first).toEqual([line('picture 1')]);
    expect(second).toEqual(first);
    expect(read).toEqual([1]);
    await memo.recognise(logo, 'deu+eng', true, reader(logo));
    await memo.recognise(logo, 'eng', false, reader(logo));
    const other = new Uint8Array([2, 2, 3]);
    expect(await memo.recognise(other, 'eng', true, reader(other))).toEqual([line('picture 2')]);
    expect(read).toEqual([1, 1, 1, 2]);
  });

  it('gives each caller lines of its own', async () => {
    const memo = new RecognitionMemo();
    const { reader } = countingReader();
    const logo = new Uint8Array([7]);
    const first = await memo.recognise(logo, 'eng', true, reader(logo));
    first[0]!.words[0]!.text = 'changed by its layout';
    first.pop();
    expect(await memo.recognise(logo, 'eng', true, reader(logo))).toEqual([line('picture 7')]);
  });

  it('does not remember a reading that failed', async () => {
    const memo = new RecognitionMemo();
    const image = new Uint8Array([9]);
    await expect(memo.recognise(image, 'eng', true, () => Promise.reject(new Error('worker ended')))).rejects.toThrow('worker ended');
    const { read, reader } = countingReader();
    expect(await memo.recognise(image, 'eng', true, reader(image))).toEqual([line('picture 9')]);
    expect(read).toEqual([9]);
  });

  it('forgets the least recently used pictures beyond the words it may keep', async () => {
    const memo = new RecognitionMemo(100, 3);
    const read: number[] = [];
    const words = (image: Uint8Array, count: number) => async () => {
      read.push(image[0]!);
      return Array.from({ length: count }, (_, index) => line(`word${index}`));
    };
    const [a, b, c] = [new Uint8Array([1]), new Uint8Array([2]), new Uint8Array([3])];
    await memo.recognise(a, 'eng', true, words(a, 1));
    await memo.recognise(b, 'eng', true, words(b, 2));
    // A third picture of 2 words makes 5: the least recently used are forgotten (a, then b) until 3 fit.
    await memo.recognise(c, 'eng', true, words(c, 2));
    await memo.recognise(c, 'eng', true, words(c, 2));
    await memo.recognise(a, 'eng', true, words(a, 1));
    await memo.recognise(b, 'eng', true, words(b, 2));
    expect(read).toEqual([1, 2, 3, 1, 2]);
  });

  it('forgets the least recently used picture beyond its capacity', async () => {
    const memo = new RecognitionMemo(2);
    const { read, reader } = countingReader();
    const [a, b, c] = [new Uint8Array([1]), new Uint8Array([2]), new Uint8Array([3])];
    await memo.recognise(a, 'eng', true, reader(a));
    await memo.recognise(b, 'eng', true, reader(b));
    await memo.recognise(a, 'eng', true, reader(a));
    await memo.recognise(c, 'eng', true, reader(c));
    // b was used least recently: forgotten; a and c are still known.
    await memo.recognise(a, 'eng', true, reader(a));
    await memo.recognise(c, 'eng', true, reader(c));
    await memo.recognise(b, 'eng', true, reader(b));
    expect(read).toEqual([1, 2, 3, 2]);
  });
});

describe('a picture repeated on the pages of a PDF', () => {
  it('is read by tesseract once where it is drawn alike, and its text is on every page at its place', async () => {
    const logo = await pictureOfText([{ x: 12, y: 50, text: 'Harbour Freight Services', size: 20 }], 360, 90);
    const page = (y: number, sentence: string) => ({
      text: [{ x: 72, y: 400, text: sentence, size: 12 }],
      images: [{ bitmap: logo, x: 72, y, width: 360, height: 90 }],
    });
    // A letterhead drawn at the same place on two pages, and lower on the third: rendered at another offset to the
    // pixel grid, its pixels differ, and it is read again.
    const pdf = mixedPdf([page(680, 'The first page of the letter.'), page(680, 'The second page goes on.'), page(600, 'The last page ends it.')]);
    let tesseractReads = 0;
    const original = RecognitionMemo.prototype.recognise;
    vi.spyOn(RecognitionMemo.prototype, 'recognise').mockImplementation(function (this: RecognitionMemo, image, languages, invert, read) {
      return original.call(this, image, languages, invert, () => {
        tesseractReads += 1;
        return read();
      });
    });
    const model = await convertBytes(pdf, { mode: 'auto' });
    const ocr = allBlocks(model).filter((block) => block.source === 'layout_ocr');
    expect(ocr.map((block) => block.markdown)).toEqual(Array(3).fill(expect.stringMatching(/Harbour Freight Services/)));
    expect(tesseractReads).toBe(2);
    // Each at its place: the third page has the picture lower (80 points of 792).
    const tops = ocr.map((block) => block.bbox![1]);
    expect(tops[1]).toBeCloseTo(tops[0]!, 3);
    expect(tops[2]! - tops[0]!).toBeCloseTo(80 / 792, 2);
  });
});
