/**
 * Pictures that travel inside a parse result as base64 `data:` URIs (the contract's `removeBase64Images: false`),
 * lifted out as bytes: each distinct picture once, keyed by the sha256 of its bytes, and every place that named it
 * (Markdown, per-page Markdown, block content, cleaned HTML, the `images` list) names `docmill-image:<sha256>`
 * instead. The local engine lifts them in its worker thread, so the bytes cross to the pipeline as transferred
 * buffers and the Markdown string shrinks; a remote API's answer is lifted the same way when it arrives.
 */
import { createHash } from 'node:crypto';
import type { ParseData } from '../contract/response.js';

export interface EmbeddedImage {
  /** sha256 of the bytes, lowercase hex: the picture's identity and the key its references use. */
  sha256: string;
  /** The media type the document gave (`image/png`, `image/x-emf`...), lower-case. */
  mediaType: string;
  bytes: Uint8Array;
  /** The name the document gives it (a PDF figure's `p3-figure-1`), without extension; the `name` parameter of its data: URI. */
  name?: string;
}

/**
 * Pixels (width × height) one picture may declare, and distinct pictures one document may have, for `--images`
 * (pipeline/images/image-limits.ts): an engine that decodes pictures itself (a PDF's) decodes none larger and
 * stops one past the count, so an image bomb costs it no memory before the pipeline refuses it.
 */
export const MAX_PICTURE_PIXELS = 100_000_000;
export const MAX_PICTURES = 1000;

export interface LiftedImages {
  data: ParseData;
  /** In order of first appearance (Markdown first). */
  images: EmbeddedImage[];
}

export const EMBEDDED_IMAGE_SCHEME = 'docmill-image:';

/**
 * A base64 image data URI (`data:image/png;base64,...`, parameters allowed); other data: URIs are left alone. The
 * data ends at the first character that cannot be base64 (white space included), and must be followed by one that
 * ends a link or attribute: a greedy run, which V8 scans four times as fast as the lazy one it replaced (whose white
 * space, ending the data all the same, matched nothing more) over a document's megabytes of pictures.
 */
const DATA_IMAGE = /data:(image\/[a-z0-9.+-]+)((?:;[a-z0-9-]+=[^;,\s)>"']*)*);base64,([A-Za-z0-9+/=]*)(?=[)>"'\s\]]|$)/gi;

/** The reference a lifted picture is named by in the result's text. */
export function embeddedImageReference(sha256: string): string {
  return `${EMBEDDED_IMAGE_SCHEME}${sha256}`;
}

/** Every `docmill-image:<sha256>` reference in a text, with its hash. */
export const EMBEDDED_IMAGE_REFERENCE = /docmill-image:([0-9a-f]{64})/g;

/** Lifts every base64 image out of `data` (which is not changed): see the module comment. */
export function liftDataImages(data: ParseData): LiftedImages {
  const images = new Map<string, EmbeddedImage>();
  const replace = (whole: string, mediaType: string, parameters: string, base64: string): string => {
    const decoded = Buffer.from(base64, 'base64');
    if (decoded.byteLength === 0) return whole;
    const sha256 = createHash('sha256').update(decoded).digest('hex');
    // A copy with a buffer of its own: small decodes share Node's pool, which must never be transferred.
    const name = /;name=([a-z0-9-]{1,64})(?=;|$)/i.exec(parameters)?.[1];
    if (!images.has(sha256)) images.set(sha256, { sha256, mediaType: mediaType.toLowerCase(), bytes: new Uint8Array(decoded), ...(name ? { name } : {}) });
    return embeddedImageReference(sha256);
  };
  const lifted = rewriteResultText(data, (text) => (text.includes('data:') ? replaceTracked(text, DATA_IMAGE, replace) : unchanged(text)));
  return { data: lifted, images: [...images.values()] };
}

/** A text after replacements, and where an offset into the text before them lies in it. */
export interface Rewritten {
  text: string;
  offset: (before: number) => number;
}

function unchanged(text: string): Rewritten {
  return { text, offset: (before) => before };
}

/**
 * `text.replace(pattern, replacer)` (pattern global), remembering each replacement to move offsets past it; an offset
 * inside a replaced stretch stays inside its replacement.
 */
export function replaceTracked(text: string, pattern: RegExp, replacer: (whole: string, ...groups: string[]) => string): Rewritten {
  const edits: Array<{ start: number; end: number; length: number; shiftAfter: number }> = [];
  let shift = 0;
  const result = text.replace(pattern, (whole: string, ...rest: unknown[]) => {
    const groups = rest.filter((value): value is string => typeof value === 'string' || value === undefined).map((value) => value ?? '');
    const at = rest.find((value): value is number => typeof value === 'number') ?? 0;
    const replacement = replacer(whole, ...groups);
    shift += replacement.length - whole.length;
    edits.push({ start: at, end: at + whole.length, length: replacement.length, shiftAfter: shift });
    return replacement;
  });
  if (edits.length === 0) return unchanged(text);
  return {
    text: result,
    offset: (before) => {
      let moved = 0;
      for (const edit of edits) {
        if (before <= edit.start) break;
        if (before < edit.end) return edit.start + moved + Math.min(before - edit.start, edit.length);
        moved = edit.shiftAfter;
      }
      return before + moved;
    },
  };
}

/**
 * `data` with `rewrite` applied to every text that can name a picture: the Markdown (block spans moved with it),
 * each page's Markdown, each block's content and picture (a figure's `image`), the cleaned HTML and the `images` list.
 */
export function rewriteResultText(data: ParseData, rewrite: (text: string) => Rewritten): ParseData {
  const result: ParseData = { ...data };
  let offset = (before: number) => before;
  if (typeof data.markdown === 'string') {
    const rewritten = rewrite(data.markdown);
    result.markdown = rewritten.text;
    offset = rewritten.offset;
  }
  // A page's own picture (`--page-images`): its entries in `pages` and `blocks` name it as `image`.
  const pageImage = (page: Record<string, unknown>) => (typeof page.image === 'string' ? { image: rewrite(page.image).text } : {});
  if (data.pages) result.pages = data.pages.map((page) => ({ ...page, markdown: rewrite(page.markdown).text, ...pageImage(page) }));
  if (data.blocks) {
    result.blocks = data.blocks.map((page) => ({
      ...page,
      ...pageImage(page),
      items: page.items.map((item) => ({
        ...item,
        content: rewrite(item.content).text,
        // A figure's picture (engine/pdf/figures): the same reference its content links to.
        ...(typeof item.image === 'string' ? { image: rewrite(item.image).text } : {}),
        ...(item.markdownSpan ? { markdownSpan: [offset(item.markdownSpan[0]), offset(item.markdownSpan[1])] as [number, number] } : {}),
      })),
    }));
  }
  if (typeof data.html === 'string') result.html = rewrite(data.html).text;
  if (data.images) result.images = [...new Set(data.images.map((image) => rewrite(image).text).filter((image) => image !== ''))];
  return result;
}
