/**
 * The parse response (spec: "Parse response"). Objects are loose: fields the contract does not name pass
 * through, so a newer API does not break an older docmill; fields it names are checked for type.
 */
import { z } from 'zod';

/** Block types named by the contract. New types may appear over time; clients must tolerate unknown values. */
export const KNOWN_BLOCK_TYPES = [
  'title',
  'section_header',
  'text',
  'table',
  'formula',
  'figure',
  'caption',
  'page_number',
  'page_header',
  'page_footer',
] as const;
export type KnownBlockType = (typeof KNOWN_BLOCK_TYPES)[number];

/** A page's rollup in `blocks[].status` (the contract's value set; read leniently, as new values may appear). */
export type PageStatus = 'ok' | 'partial' | 'failed';

const stringOrList = z.union([z.string(), z.array(z.string())]);

export const blockItemSchema = z.looseObject({
  id: z.string(),
  /** One of KNOWN_BLOCK_TYPES, or a newer type this docmill does not know yet. */
  type: z.string(),
  label: z.string().nullable().optional(),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable().optional(),
  content: z.string(),
  markdownSpan: z.tuple([z.number().int(), z.number().int()]).nullable().optional(),
  readingOrder: z.number().int(),
  source: z.string().nullable().optional(),
  confidence: z
    .looseObject({ layout: z.number().nullable().optional(), ocr: z.number().nullable().optional() })
    .optional(),
});
export type BlockItem = z.output<typeof blockItemSchema>;

export const pageBlocksSchema = z.looseObject({
  pageNumber: z.number().int(),
  width: z.number().nullable().optional(),
  height: z.number().nullable().optional(),
  /** ok | partial | failed; kept as a string so a new rollup value does not fail decoding. */
  status: z.string(),
  items: z.array(blockItemSchema),
});
export type PageBlocks = z.output<typeof pageBlocksSchema>;

export const pageMarkdownSchema = z.looseObject({
  pageNumber: z.number().int(),
  markdown: z.string(),
});
export type PageMarkdown = z.output<typeof pageMarkdownSchema>;

export const metadataSchema = z.looseObject({
  title: stringOrList.optional(),
  description: stringOrList.optional(),
  keywords: stringOrList.optional(),
  language: stringOrList.nullable().optional(),
  sourceURL: z.string().optional(),
  url: z.string().optional(),
  ogLocaleAlternate: z.array(z.string()).optional(),
  statusCode: z.number().int().optional(),
  /** PDF: pages parsed (capped by maxPages). */
  numPages: z.number().int().optional(),
  /** PDF: true page count before capping; greater than numPages when the result was truncated. */
  totalPages: z.number().int().optional(),
  contentType: z.string().optional(),
  error: z.string().nullable().optional(),
  /** True when the request waited in the API's concurrency queue. */
  concurrencyLimited: z.boolean().optional(),
  concurrencyQueueDurationMs: z.number().optional(),
  /** Credits the parse cost on the hosted API (not in the spec's table; the hosted API reports it). */
  creditsUsed: z.number().optional(),
});
export type ParseMetadata = z.output<typeof metadataSchema>;

export const parseDataSchema = z.looseObject({
  markdown: z.string().optional(),
  pages: z.array(pageMarkdownSchema).nullable().optional(),
  blocks: z.array(pageBlocksSchema).nullable().optional(),
  summary: z.string().nullable().optional(),
  html: z.string().nullable().optional(),
  rawHtml: z.string().nullable().optional(),
  links: z.array(z.string()).optional(),
  /** The `images` format's result: a list of image URLs. */
  images: z.array(z.string()).nullable().optional(),
  /** The `json` format's result. */
  json: z.unknown().optional(),
  warning: z.string().nullable().optional(),
  metadata: metadataSchema.optional(),
});
export type ParseData = z.output<typeof parseDataSchema>;

export const parseResponseSchema = z.looseObject({
  success: z.literal(true),
  data: parseDataSchema,
});
export type ParseResponse = z.output<typeof parseResponseSchema>;

/** Every non-2xx body: `success` false (absent on some relayed bodies), `error`, optional `code` and `details`. */
export const errorBodySchema = z.looseObject({
  success: z.literal(false).optional(),
  error: z.string(),
  code: z.string().optional(),
  details: z.unknown().optional(),
});
export type ErrorBody = z.output<typeof errorBodySchema>;
