/**
 * Where a page draws raster images, and what mode auto does about them. The patched pdfjs worker feeds every
 * image it meets while reading a content stream for its text (an image XObject's `Do`, an inline image) to an
 * `ImageRecorder`: no image is decoded and no second pass is made, so a text PDF pays almost nothing. Each image
 * is the unit square under the current matrix; its bounding box in device space is kept.
 *
 * The plan for a page that has a text layer (mode auto):
 * - **full page**: images cover at least half the page and the page's text layer holds fewer than one character
 *   per `CHARS_PER_IMAGE_AREA` pt² of image (about 190 on a letter page): a scan with a stamped page number, a
 *   Bates number or a footer line. The page is rendered, and OCR'd whole when the render looks like
 *   text on a plain background (`looksLikeText`); the OCR reading replaces the text layer only when it reads at
 *   least twice its characters (a slide over a white template keeps its text layer);
 * - **regions**: otherwise (images over half a page beside a text layer of more are pictures on a text page too),
 *   each image (touching images joined) of at least `MIN_REGION_AREA` pt², both sides at
 *   least `MIN_REGION_SIDE` pt, with no text-layer character over it, at most `MAX_REGIONS` per page (the
 *   largest): a scanned figure in a text page. Only these regions are rendered, and OCR'd when they look like
 *   text (a photo is not read).
 * Pure apart from the recorder's state.
 */
import type { PdfTextItem, Rect } from '../types.js';

/** The most images one content stream may report (a page tiled with thousands of tiny images stops there). */
export const MAX_IMAGES_PER_STREAM = 2_000;
/** Share of the page that images must cover for the page to be a scan. */
export const SCAN_COVERAGE = 0.5;
/** pt² of image per text-layer character below which a page-sized image is a scan with stamped text. */
export const CHARS_PER_IMAGE_AREA = 2_500;
/** Regions smaller than this (pt²; 1 × 1 inch is 5,184) are logos and icons, never OCR'd. */
export const MIN_REGION_AREA = 5_000;
/** A region narrower or lower than this (pt) cannot hold a line of text worth reading. */
export const MIN_REGION_SIDE = 24;
/** The most image regions OCR'd on one page. */
export const MAX_REGIONS = 4;

type Matrix = readonly number[];

/** Collects the device-space boxes of the images one content stream paints; four numbers per image. */
export class ImageRecorder {
  private readonly boxes: number[] = [];
  private readonly names = new Set<string>();

  /** An image painted through the current matrix (`name` for an XObject, null for an inline image). */
  image(name: string | null, ctm: Matrix): void {
    if (name !== null) this.names.add(name);
    this.add(ctm);
  }

  /** An XObject pdfjs skips as already seen: painted again (elsewhere) if it is one of this stream's images. */
  repeat(name: string, ctm: Matrix): void {
    if (this.names.has(name)) this.add(ctm);
  }

  take(): number[] {
    return this.boxes;
  }

  private add(ctm: Matrix): void {
    if (this.boxes.length >= MAX_IMAGES_PER_STREAM * 4) return;
    const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = ctm;
    const xs = [e, a + e, c + e, a + c + e];
    const ys = [f, b + f, d + f, b + d + f];
    const x0 = Math.min(...xs);
    const x1 = Math.max(...xs);
    const y0 = Math.min(...ys);
    const y1 = Math.max(...ys);
    if (![x0, y0, x1, y1].every(Number.isFinite) || x1 - x0 < 1 || y1 - y0 < 1) return;
    this.boxes.push(x0, y0, x1, y1);
  }
}

/** The marker item the patched worker adds to a content stream's text content when it painted images. */
export interface ImagesItem {
  type: 'docmillImages';
  boxes: number[];
}

export function isImagesItem(item: unknown): item is ImagesItem {
  return (item as { type?: unknown } | null)?.type === 'docmillImages' && Array.isArray((item as ImagesItem).boxes);
}

/** Device-space boxes → viewport rectangles (top-down, rotation applied), clipped to the page. */
export function imagesInViewport(boxes: readonly number[], viewportTransform: Matrix, width: number, height: number): Rect[] {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = viewportTransform;
  const out: Rect[] = [];
  for (let i = 0; i + 3 < boxes.length; i += 4) {
    const corners = [
      [boxes[i]!, boxes[i + 1]!],
      [boxes[i + 2]!, boxes[i + 3]!],
    ].map(([x, y]) => [a * x! + c * y! + e, b * x! + d * y! + f] as const);
    const x0 = Math.max(0, Math.min(corners[0]![0], corners[1]![0]));
    const x1 = Math.min(width, Math.max(corners[0]![0], corners[1]![0]));
    const y0 = Math.max(0, Math.min(corners[0]![1], corners[1]![1]));
    const y1 = Math.min(height, Math.max(corners[0]![1], corners[1]![1]));
    if (x1 - x0 >= 1 && y1 - y0 >= 1) out.push({ x0, y0, x1, y1 });
  }
  return out;
}

export interface OcrPlan {
  /** OCR the whole page: a page-sized image with too few text-layer characters over it. */
  fullPage: boolean;
  /** Otherwise, image regions with no text over them to OCR (page units, viewport space), largest first. */
  regions: Rect[];
}

const ROWS = 32;

/**
 * The share of the page (0..1) covered by the union of `rects`: on 32 rows across the page, the length of the
 * union of the rectangles' spans on that row.
 */
function coverage(rects: readonly Rect[], width: number, height: number): number {
  let covered = 0;
  const spans: [number, number][] = [];
  for (let i = 0; i < ROWS; i++) {
    const y = ((i + 0.5) / ROWS) * height;
    spans.length = 0;
    for (const r of rects) if (y >= r.y0 && y <= r.y1) spans.push([r.x0, r.x1]);
    if (spans.length === 0) continue;
    spans.sort((p, q) => p[0] - q[0]);
    let [start, end] = spans[0]!;
    for (const [x0, x1] of spans) {
      if (x0 > end) {
        covered += end - start;
        start = x0;
      }
      end = Math.max(end, x1);
    }
    covered += end - start;
  }
  return covered / (ROWS * width);
}

function area(rect: Rect): number {
  return (rect.x1 - rect.x0) * (rect.y1 - rect.y0);
}

/** The point a text item is judged by: the middle of its run, a little above the baseline. */
function centreInside(item: PdfTextItem, rect: Rect): boolean {
  const x = (item.x0 + item.x1) / 2;
  const y = item.baseline - 0.3 * item.size;
  return x >= rect.x0 && x <= rect.x1 && y >= rect.y0 && y <= rect.y1;
}

/** Non-space UTF-16 units: close enough to characters for a threshold, and cheap on every item of a page. */
function nonSpace(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 32 && code !== 0xa0) n++;
  }
  return n;
}

/** Images that overlap or touch (within 2 pt) become one region: a picture drawn in tiles is read whole. */
function joinTouching(rects: readonly Rect[]): Rect[] {
  const out = rects.map((rect) => ({ ...rect }));
  let merged = true;
  while (merged) {
    merged = false;
    for (let i = 0; i < out.length && !merged; i++) {
      for (let j = i + 1; j < out.length; j++) {
        const p = out[i]!;
        const q = out[j]!;
        if (p.x0 <= q.x1 + 2 && q.x0 <= p.x1 + 2 && p.y0 <= q.y1 + 2 && q.y0 <= p.y1 + 2) {
          out[i] = { x0: Math.min(p.x0, q.x0), y0: Math.min(p.y0, q.y0), x1: Math.max(p.x1, q.x1), y1: Math.max(p.y1, q.y1) };
          out.splice(j, 1);
          merged = true;
          break;
        }
      }
    }
  }
  return out;
}

/** Mode auto's plan for a page with a text layer (`items`, its horizontal runs) and `images`. */
export function planImageOcr(images: readonly Rect[], items: readonly PdfTextItem[], width: number, height: number): OcrPlan {
  const none: OcrPlan = { fullPage: false, regions: [] };
  if (images.length === 0 || !(width > 0 && height > 0)) return none;
  // Only images that could matter: a page of hundreds of icons is judged by its large ones.
  const candidates = images.filter((rect) => area(rect) >= MIN_REGION_AREA / 4).slice(0, 200);
  if (candidates.length === 0) return none;
  // The union covers no more than the images' areas added up: most pages are decided without measuring it.
  const total = candidates.reduce((sum, rect) => sum + area(rect), 0);
  const covered = total >= SCAN_COVERAGE * width * height ? coverage(candidates, width, height) : 0;
  if (covered >= SCAN_COVERAGE) {
    // The whole text layer counts: a scan's is only a stamp, where a page of charts above a paragraph has the
    // paragraph's text beside them (its charts are regions, below).
    let chars = 0;
    for (const item of items) chars += nonSpace(item.str);
    const imageArea = covered * width * height;
    if (chars < imageArea / CHARS_PER_IMAGE_AREA) return { fullPage: true, regions: [] };
  }
  const regions = joinTouching(candidates)
    .filter((rect) => area(rect) >= MIN_REGION_AREA && rect.x1 - rect.x0 >= MIN_REGION_SIDE && rect.y1 - rect.y0 >= MIN_REGION_SIDE)
    .filter((rect) => !items.some((item) => centreInside(item, rect) && nonSpace(item.str) > 0))
    .sort((p, q) => area(q) - area(p))
    .slice(0, MAX_REGIONS);
  return { fullPage: false, regions };
}

/** Share of the pixels within one 32-level band of grey for a picture to have a plain background (paper). */
const BACKGROUND_SHARE = 0.5;
/** A pixel this far from the background's grey is ink (dark on light or light on dark). */
const INK_CONTRAST = 96;
/** Text leaves at least this share of ink, and at most this share (beyond it the picture is mostly ink). */
const MIN_INK = 0.002;
const MAX_INK = 0.4;

/**
 * Whether a greyscale picture (the render of a page or an image region) can hold text worth OCR: a plain
 * background (a band of 32 grey levels holding half the pixels or more: paper, a flat screenshot) and some, but
 * not mostly, ink against it. A photo or a gradient has no such background and is not read; a blank picture has
 * no ink. Pure.
 */
export function looksLikeText(pixels: Uint8Array): boolean {
  return looksLikeTextBy(greyHistogram(pixels), pixels.length);
}

/** How many pixels hold each of the 256 grey levels: one pass over a picture, which every judgement below reads. */
export function greyHistogram(pixels: Uint8Array): Uint32Array {
  const histogram = new Uint32Array(256);
  for (let i = 0; i < pixels.length; i++) histogram[pixels[i]!]!++;
  return histogram;
}

/** The densest band of 32 grey levels: its middle level (the background's grey), and how many pixels it holds. */
function backgroundBand(histogram: Uint32Array): { level: number; pixels: number } {
  let best = 0;
  let bestStart = 0;
  let window = 0;
  for (let level = 0; level < 256; level++) {
    window += histogram[level]!;
    if (level >= 32) window -= histogram[level - 32]!;
    if (window > best) {
      best = window;
      bestStart = Math.max(0, level - 31);
    }
  }
  return { level: bestStart + 16, pixels: best };
}

function looksLikeTextBy(histogram: Uint32Array, total: number, ground = backgroundBand(histogram)): boolean {
  if (total === 0) return false;
  const { level: background, pixels } = ground;
  if (pixels < BACKGROUND_SHARE * total) return false;
  let ink = 0;
  for (let level = 0; level < 256; level++) if (Math.abs(level - background) >= INK_CONTRAST) ink += histogram[level]!;
  const share = ink / total;
  return share >= MIN_INK && share <= MAX_INK;
}

/** A grey level counts as used when it holds this share of the pixels. */
const USED_LEVEL_SHARE = 0.001;
/** A picture using more grey levels than this is continuous-tone (a photo), not flat ink on a plain ground. */
const MAX_FLAT_LEVELS = 90;

/**
 * Whether a greyscale picture is continuous-tone: more than `MAX_FLAT_LEVELS` grey levels each hold a share of
 * its pixels. A photo, or a screenshot full of them, is; text, a chart or a diagram drawn in flat colours (their
 * anti-aliased edges spread thinly over many levels) is not. Image regions that are go unread: OCR spends most
 * of its time on them and finds no words. Pure.
 */
export function isContinuousTone(pixels: Uint8Array): boolean {
  return isContinuousToneBy(greyHistogram(pixels), pixels.length);
}

function isContinuousToneBy(histogram: Uint32Array, total: number): boolean {
  let used = 0;
  for (let level = 0; level < 256; level++) if (histogram[level]! > USED_LEVEL_SHARE * total) used++;
  return used > MAX_FLAT_LEVELS;
}

/** A grey level below this is dark: a fill light text may be set on. */
const DARK_LEVEL = 128;
/** From this share of dark pixels a picture may hold light text on dark fills (labels in dark shapes). */
const DARK_FILL_SHARE = 0.1;

/**
 * Whether a greyscale picture (as its histogram) has enough dark area to hold light text on dark fills: OCR then also
 * reads its lines of low confidence inverted (tesseract.ts). Dark ink on a light ground stays below the share. Pure.
 */
function mayHoldLightOnDarkBy(histogram: Uint32Array, total: number): boolean {
  let dark = 0;
  for (let level = 0; level < DARK_LEVEL; level++) dark += histogram[level]!;
  return total > 0 && dark >= DARK_FILL_SHARE * total;
}

/** What mode auto does with the render of an image region: read it or not, and whether to read it inverted too. */
export interface RegionJudgement {
  /** Worth OCR: it looks like text on a plain background (`looksLikeText`) and is not continuous-tone (a photo). */
  read: boolean;
  /** Lines of low confidence are read again inverted (`mayHoldLightOnDarkBy`). */
  invert: boolean;
  /** It looks like text on a plain ground (`looksLikeText`), whether or not it is continuous-tone. */
  plain: boolean;
}

/**
 * The three judgements of an image region's render from one histogram: each measured on its own went over the
 * pixels once more, three passes per region where one does. Pure.
 */
export function judgeRegion(pixels: Uint8Array): RegionJudgement {
  const histogram = greyHistogram(pixels);
  const plain = looksLikeTextBy(histogram, pixels.length);
  const read = plain && !isContinuousToneBy(histogram, pixels.length);
  return { read, invert: read && mayHoldLightOnDarkBy(histogram, pixels.length), plain };
}

/** Rows of a band judged on its own (at 150 DPI, a line of 9-point text is about 19 rows). */
const BAND_ROWS = 24;
/** Rows kept on each side of a run of text bands, so that a line a band's edge cuts is read whole. */
const BAND_MARGIN = 12;
/**
 * A band whose background holds this share of its pixels is text on a plain ground even when its grey levels are
 * many: a band is too small for the count of levels to tell a photo (a quarter of its pixels or less in one band of
 * grey) from JPEG's noise around lines of text.
 */
const PLAIN_BAND_SHARE = 0.7;
/** A continuous-tone band with less of its pixels in one band of grey than this is photo (0.2-0.35 in a thumbnail row). */
const PHOTO_BAND_SHARE = 0.4;

/** A run of rows of a picture to read, and whether to read its lines of low confidence inverted too. */
export interface TextBand {
  /** The first row (inclusive) and the row after the last. */
  top: number;
  bottom: number;
  invert: boolean;
  /** Its ground is dark (light text on a dark theme's screen): it is read with its greys inverted. */
  dark: boolean;
}

/**
 * The runs of rows of a picture that look like text where the picture as a whole does not (a screenshot of an app
 * or a web page: photos, and lines of text on a plain ground between them): bands of BAND_ROWS rows judged each on a
 * plain background with some ink (`looksLikeText`), and either not continuous-tone or almost all background;
 * neighbours on the same kind of ground (light or dark) joined, each run widened by BAND_MARGIN rows. None when no
 * band is photo (PHOTO_BAND_SHARE): a picture continuous-tone throughout is a pale photo or a gradient. Pure.
 */
export function textBands(pixels: Uint8Array, width: number, height: number): TextBand[] {
  const runs: TextBand[] = [];
  let photoBands = 0;
  for (let top = 0; top < height; top += BAND_ROWS) {
    const bottom = Math.min(height, top + BAND_ROWS);
    const total = (bottom - top) * width;
    const histogram = greyHistogram(pixels.subarray(top * width, bottom * width));
    const ground = backgroundBand(histogram);
    const groundShare = ground.pixels / total;
    const continuous = isContinuousToneBy(histogram, total);
    if (continuous && groundShare < PHOTO_BAND_SHARE) photoBands += 1;
    if (!looksLikeTextBy(histogram, total, ground) || (continuous && groundShare < PLAIN_BAND_SHARE)) continue;
    const invert = mayHoldLightOnDarkBy(histogram, total);
    const dark = ground.level < DARK_LEVEL;
    const last = runs.at(-1);
    if (last && last.bottom >= top && last.dark === dark) {
      last.bottom = bottom;
      last.invert ||= invert;
    } else runs.push({ top, bottom, invert, dark });
  }
  // No band of photo: the picture is continuous-tone throughout, thinly (a pale photo, a gradient), not a screenshot.
  if (photoBands === 0) return [];
  return runs.map((run) => ({ ...run, top: Math.max(0, run.top - BAND_MARGIN), bottom: Math.min(height, run.bottom + BAND_MARGIN) }));
}
