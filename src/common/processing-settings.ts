/**
 * What docmill does with a document beyond the /v2/parse options: settings that change its outputs. They are part
 * of the options fingerprint (so changing one re-parses, and outputs are reused only for the same settings) and
 * they travel with queued jobs, so every worker of a queue applies the settings the producer was given.
 */
import { z } from 'zod';

export const chunkSettingsSchema = z
  .object({
    /** The most tokens in a chunk's text. */
    maxTokens: z.number().int().positive(),
    /** Tokens repeated from the end of a chunk at the start of the next one in the same section. */
    overlapTokens: z.number().int().nonnegative(),
  })
  .strict();
export type ChunkSettings = z.infer<typeof chunkSettingsSchema>;

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
  })
  .strict();
export type ProcessingSettings = z.infer<typeof processingSettingsSchema>;

/** True when the settings ask for nothing beyond the defaults (the fingerprint is then the options' alone). */
export function isDefaultSettings(settings: ProcessingSettings | undefined): boolean {
  return settings === undefined || Object.values(settings).every((value) => value === undefined);
}
