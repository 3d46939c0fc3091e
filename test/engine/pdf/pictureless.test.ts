/**
 * `--images` leaves alone the pages the text pass shows hold no picture: no image, fewer paths than a drawing,
 * and nothing in the file (an image or form XObject) that the text pass may not see.
 */
import { describe, expect, it } from 'vitest';
import type { ModelPage } from '../../../src/engine/model.js';
import { drawsOnlyWhatTextPassSees, pagePictureless } from '../../../src/engine/pdf/figures/pictureless.js';

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
const page = (drawing?: ModelPage['drawing']): ModelPage => ({ pageNumber: 1, width: 612, height: 792, status: 'ok', blocks: [], ...(drawing ? { drawing } : {}) });

describe('pages without pictures', () => {
  it('takes a file with an image or form XObject, however spelt, for one that may hide them', () => {
    expect(drawsOnlyWhatTextPassSees(bytes('%PDF-1.7\n1 0 obj << /Type /Page /Contents 2 0 R >> endobj'))).toBe(true);
    expect(drawsOnlyWhatTextPassSees(bytes('3 0 obj << /Type /XObject /Subtype /Image /Width 20 >> stream'))).toBe(false);
    expect(drawsOnlyWhatTextPassSees(bytes('3 0 obj <</Subtype/Form/BBox [0 0 10 10]>> stream'))).toBe(false);
    expect(drawsOnlyWhatTextPassSees(bytes('3 0 obj <</Subtype /Im#61ge>> stream'))).toBe(false);
    // A font's or an annotation's subtype is not a picture.
    expect(drawsOnlyWhatTextPassSees(bytes('<< /Type /Font /Subtype /Type1 >> << /Subtype /Link >>'))).toBe(true);
  });

  it('leaves out a page only when the text pass looked for its images and saw none, and too few paths for a drawing', () => {
    expect(pagePictureless(page({ paths: 2, images: 0 }))).toBe(true);
    expect(pagePictureless(page({ paths: 3, images: 0 }))).toBe(false);
    expect(pagePictureless(page({ paths: 0, images: 1 }))).toBe(false);
    expect(pagePictureless(page({ paths: 0 }))).toBe(false);
    expect(pagePictureless(page())).toBe(false);
  });
});
