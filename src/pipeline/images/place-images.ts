/**
 * `--images`: a parse result's pictures become files beside its Markdown. Each distinct picture (by the sha256 of
 * its bytes, so a logo on every page is one file) is named by the name its document gives it (a PDF's
 * `p3-figure-1.png`), else `image-<n>.<ext>` in the order the Markdown first shows it, and every reference to it (`docmill-image:<sha256>`, embedded-images.ts) becomes the relative link from the
 * Markdown to it (`<file>.assets/image-<n>.<ext>` in a store). Decorations (image-limits.ts) are left out with their references; a document over
 * the limits fails as a whole, before anything of it is written.
 */
import { EMBEDDED_IMAGE_REFERENCE, liftDataImages, replaceTracked, rewriteResultText, type EmbeddedImage } from '../../backend/embedded-images.js';
import type { ParseResult } from '../../backend/parse-backend.js';
import type { ParseData } from '../../contract/response.js';
import { IMAGE_MEDIA_TYPES } from '../../store/layout.js';
import type { AssetFile } from '../../store/output-store.js';
import { IMAGE_LIMITS, ImagesOverLimitError, type ImageLimits } from './image-limits.js';
import { pixelSize } from './image-size.js';

export interface PlacedImages {
  data: ParseData;
  /** The files to write, in the order of their names. */
  assets: AssetFile[];
  /** Distinct pictures left out as decorations. */
  skipped: number;
}

/** Media types some writers use for the encodings of IMAGE_MEDIA_TYPES. */
const MEDIA_TYPE_ALIASES: Readonly<Record<string, string>> = {
  'image/jpg': 'jpg',
  'image/pjpeg': 'jpg',
  'image/x-emf': 'emf',
  'image/x-wmf': 'wmf',
  'image/x-ms-bmp': 'bmp',
  'image/x-png': 'png',
};
const EXTENSION_OF = new Map([...Object.entries(IMAGE_MEDIA_TYPES).map(([extension, type]) => [type, extension] as const), ...Object.entries(MEDIA_TYPE_ALIASES)]);

/**
 * A Markdown image whose destination is a lifted picture: `![alt](docmill-image:<sha256> "title")`, with the block
 * separator after it, which goes with a decoration left out.
 */
const MARKDOWN_IMAGE = /!\[[^\]]*\]\(<?docmill-image:([0-9a-f]{64})>?(?:\s+"[^"]*")?\)(?:\n\n)?/g;

/** Where the pictures go: the document (named in errors), and the link from its Markdown to a picture's name. */
export interface ImagePlace {
  file: string;
  linkOf: (name: string) => string;
}

export function placeImages(data: ParseData, images: readonly EmbeddedImage[], place: ImagePlace, limits: ImageLimits = IMAGE_LIMITS): PlacedImages {
  const { file } = place;
  const byHash = new Map(images.map((image) => [image.sha256, image]));
  const links = new Map<string, string>();
  const dropped = new Set<string>();
  const assets: AssetFile[] = [];
  const names = new Set<string>();
  let totalBytes = 0;
  for (const sha256 of inOrderOfAppearance(data, images)) {
    const image = byHash.get(sha256);
    if (image === undefined || links.has(sha256) || dropped.has(sha256)) continue;
    const size = pixelSize(image.bytes);
    if (size && size.width * size.height > limits.maxPixels) {
      throw new ImagesOverLimitError(file, `a picture of ${size.width} × ${size.height} pixels is over the limit of ${limits.maxPixels} pixels`);
    }
    if (size && Math.min(size.width, size.height) < limits.minSide) {
      dropped.add(sha256);
      continue;
    }
    if (assets.length === limits.maxCount) throw new ImagesOverLimitError(file, `more than ${limits.maxCount} pictures`);
    totalBytes += image.bytes.byteLength;
    if (totalBytes > limits.maxTotalBytes) throw new ImagesOverLimitError(file, `its pictures are over the limit of ${limits.maxTotalBytes} bytes together`);
    const extension = EXTENSION_OF.get(image.mediaType) ?? 'bin';
    const given = image.name === undefined ? undefined : `${image.name}.${extension}`;
    const name = given !== undefined && !names.has(given) ? given : `image-${assets.length + 1}.${extension}`;
    names.add(name);
    assets.push({ name, bytes: image.bytes });
    links.set(sha256, place.linkOf(name));
  }
  const placed = rewriteResultText(data, (text) => {
    const withoutDecorations = replaceTracked(text, MARKDOWN_IMAGE, (whole, sha256 = '') => (dropped.has(sha256) ? '' : whole));
    const linked = replaceTracked(withoutDecorations.text, EMBEDDED_IMAGE_REFERENCE, (whole, sha256 = '') => links.get(sha256) ?? (dropped.has(sha256) ? '' : whole));
    return { text: linked.text, offset: (before) => linked.offset(withoutDecorations.offset(before)) };
  });
  return { data: placed, assets, skipped: dropped.size };
}

/** Lifts what base64 pictures the backend left in the result (a remote API's), then places all of them. */
export function placeResultImages(result: ParseResult, place: ImagePlace, limits: ImageLimits = IMAGE_LIMITS): PlacedImages {
  const lifted = liftDataImages(result.data);
  return placeImages(lifted.data, [...(result.images ?? []), ...lifted.images], place, limits);
}

/** The pictures' hashes as the Markdown first references them, then the rest of the result, then any unreferenced. */
function inOrderOfAppearance(data: ParseData, images: readonly EmbeddedImage[]): string[] {
  const texts = [
    data.markdown ?? '',
    ...(data.pages ?? []).map((page) => page.markdown),
    ...(data.blocks ?? []).flatMap((page) => page.items.map((item) => item.content)),
    data.html ?? '',
    ...(data.images ?? []),
  ];
  const order = texts.flatMap((text) => [...text.matchAll(EMBEDDED_IMAGE_REFERENCE)].map((match) => match[1] ?? ''));
  return [...new Set([...order, ...images.map((image) => image.sha256)])];
}
