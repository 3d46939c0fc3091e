/**
 * What docmill does with a document beyond the /v2/parse options: settings that change its outputs. They are part
 * of the options fingerprint (so changing one re-parses, and outputs are reused only for the same settings) and
 * they travel with queued jobs, so every worker of a queue applies the settings the producer was given.
 */
import { z } from 'zod';
import type { PictureRendering } from '../backend/parse-backend.js';

export const chunkSettingsSchema = z
  .object({
    /** The most tokens in a chunk's text. */
    maxTokens: z.number().int().positive(),
    /** Tokens repeated from the end of a chunk at the start of the next one in the same section. */
    overlapTokens: z.number().int().nonnegative(),
  })
  .strict();
export type ChunkSettings = z.infer<typeof chunkSettingsSchema>;

/** The resolution PDF figures and pages are rendered at unless told otherwise (`--image-dpi`). */
export const DEFAULT_IMAGE_DPI = 150;
/** Below this a chart's labels are unreadable; above the maximum a page is hundreds of megapixels. */
export const MIN_IMAGE_DPI = 36;
export const MAX_IMAGE_DPI = 600;

export const processingSettingsSchema = z
  .object({
    /**
     * Tesseract language codes OCR reads scanned pages in, on the local engine (`['deu', 'eng']`). Absent: the
     * language the document declares when its data is installed, English otherwise. A remote API has no such option.
     */
    ocrLanguages: z.array(z.string().regex(/^[a-z]{3}(_[a-z]{2,8})?$/)).min(1).optional(),
    /** Write `<path>.chunks.jsonl` beside the Markdown. Absent: no chunks. */
    chunks: chunkSettingsSchema.optional(),
    /** Write the document's pictures as `<path>.assets/<name>`, linked from the Markdown. Absent: none. */
    images: z.literal(true).optional(),
    /**
     * The resolution (dots per inch) a PDF's vector figures, and its pages with `pageImages`, are rendered at.
     * Absent: DEFAULT_IMAGE_DPI (so outputs made before the setting existed keep their fingerprint).
     */
    imageDpi: z.number().int().min(MIN_IMAGE_DPI).max(MAX_IMAGE_DPI).optional(),
    /** With `images`: each page of a PDF also rendered whole, as `<path>.assets/page-<n>.png`. Absent: none. */
    pageImages: z.literal(true).optional(),
  })
  .strict();
export type ProcessingSettings = z.infer<typeof processingSettingsSchema>;

/** True when the settings ask for nothing beyond the defaults (the fingerprint is then the options' alone). */
export function isDefaultSettings(settings: ProcessingSettings | undefined): boolean {
  return settings === undefined || Object.values(settings).every((value) => value === undefined);
}

/** How the local engine renders a PDF's pictures under these settings (`--image-dpi`, `--page-images`). */
export function pictureRenderingOf(settings: ProcessingSettings): PictureRendering {
  return { dpi: settings.imageDpi ?? DEFAULT_IMAGE_DPI, pages: settings.pageImages === true };
}
