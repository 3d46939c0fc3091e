/**
 * What `--images` writes of one document, and where it stops. A picture with a side under `minSide` pixels is a
 * decoration (a spacer, a bullet, a rule) and is left out; a document with more pictures, more bytes of them or a
 * picture of more pixels than the limits allow fails as a whole (IMAGES_OVER_LIMIT, naming the file): an image
 * bomb is refused before anything of it is written.
 */
import { MAX_PICTURE_PIXELS, MAX_PICTURES } from '../../backend/embedded-images.js';
import { DocmillError } from '../../errors/docmill-error.js';

export interface ImageLimits {
  /** Pictures whose width or height is below this many pixels are skipped. */
  minSide: number;
  /** Distinct pictures written for one document. */
  maxCount: number;
  /** Bytes of all its pictures together. */
  maxTotalBytes: number;
  /** Pixels (width × height) one picture may declare. */
  maxPixels: number;
}

export const IMAGE_LIMITS: ImageLimits = {
  minSide: 16,
  maxCount: MAX_PICTURES,
  maxTotalBytes: 256 * 1024 * 1024,
  maxPixels: MAX_PICTURE_PIXELS,
};

export class ImagesOverLimitError extends DocmillError {
  constructor(file: string, what: string) {
    super('IMAGES_OVER_LIMIT', `${file}: ${what}; no image of it was written`);
  }
}
