/**
 * The parse options object (spec: "Parse options", "PDF parser object", "Redaction object") as zod schemas.
 * Parsing an options object validates every rule and applies every default, so the output is the complete
 * options object the API will act on. The client sends that output; the server (docmill serve) acts on it.
 */
import { z } from 'zod';
import {
  DEFAULT_TIMEOUT_MS,
  MAX_AUDIT_USERNAME_LENGTH,
  MAX_MAX_PAGES,
  MAX_TIMEOUT_MS,
  MIN_MAX_PAGES,
} from './limits.js';

export const FORMAT_TYPES = ['markdown', 'summary', 'html', 'rawHtml', 'links', 'images', 'json'] as const;
export type FormatType = (typeof FORMAT_TYPES)[number];

export const PDF_MODES = ['fast', 'auto', 'ocr'] as const;
export type PdfMode = (typeof PDF_MODES)[number];

export const PROXY_VALUES = ['basic', 'auto'] as const;
export const REDACTION_MODES = ['accurate', 'aggressive', 'fast'] as const;
export const REDACTION_ENTITIES = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'] as const;
export const REPLACE_STYLES = ['tag', 'mask', 'remove'] as const;

const formatTypeList = FORMAT_TYPES.join(', ');

function oneOf(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(', ');
}

const simpleFormat = (type: Exclude<FormatType, 'json'>) => z.strictObject({ type: z.literal(type) });

const jsonFormat = z.strictObject({
  type: z.literal('json'),
  /** A JSON Schema the extracted object must conform to. */
  schema: z.record(z.string(), z.unknown()).optional(),
  /** Instructions for the extraction. */
  prompt: z.string().optional(),
});

/** One element of `formats`: an object with a `type`; only the `json` object takes more keys. */
export const formatSchema = z.discriminatedUnion(
  'type',
  [
    simpleFormat('markdown'),
    simpleFormat('summary'),
    simpleFormat('html'),
    simpleFormat('rawHtml'),
    simpleFormat('links'),
    simpleFormat('images'),
    jsonFormat,
  ],
  {
    error: (issue) => {
      if (typeof issue.input !== 'object' || issue.input === null || Array.isArray(issue.input)) {
        return `Each format must be an object with a "type", such as {"type":"markdown"}`;
      }
      return `Unsupported format type: parse accepts ${formatTypeList} (browser-rendering formats and change tracking are not supported by parse)`;
    },
  },
);
export type Format = z.output<typeof formatSchema>;

/** The PDF parser object; it allows no keys other than these. */
export const pdfParserSchema = z.strictObject({
  type: z.literal('pdf', { error: `Parser "type" must be 'pdf', the only parser defined` }),
  /** fast = text only; auto = text first, OCR fallback; ocr = OCR on every page. @default 'auto' */
  mode: z.enum(PDF_MODES, { error: `"mode" must be one of ${oneOf(PDF_MODES)}` }).default('auto'),
  /** Caps the number of pages parsed, 1..10000. */
  maxPages: z
    .number({ error: '"maxPages" must be an integer from 1 to 10000' })
    .int('"maxPages" must be an integer from 1 to 10000')
    .min(MIN_MAX_PAGES, '"maxPages" must be at least 1')
    .max(MAX_MAX_PAGES, '"maxPages" must be at most 10000')
    .optional(),
  /** Adds per-page Markdown in `data.pages`. @default false */
  pages: z.boolean().default(false),
  /** Adds per-page typed layout blocks in `data.blocks`. @default false */
  blocks: z.boolean().default(false),
  /** Marks page breaks in the document Markdown with `---` and `<!-- page N -->`. @default false */
  pageMarkers: z.boolean().default(false),
});
export type PdfParser = z.output<typeof pdfParserSchema>;

/** `parsers` elements: the PDF parser object, or the bare string 'pdf' as shorthand for `{type:'pdf'}`. */
const parserSchema = z.union([z.literal('pdf').transform(() => ({ type: 'pdf' as const })), z.unknown()]).pipe(
  pdfParserSchema,
);

export const DEFAULT_PDF_PARSER: PdfParser = Object.freeze({
  type: 'pdf',
  mode: 'auto',
  pages: false,
  blocks: false,
  pageMarkers: false,
});

/** The redaction object (`redactPII` as an object); it allows no other keys. */
export const redactionSchema = z.strictObject({
  mode: z.enum(REDACTION_MODES, { error: `"mode" must be one of ${oneOf(REDACTION_MODES)}` }).default('accurate'),
  entities: z
    .array(z.enum(REDACTION_ENTITIES, { error: `Each entity must be one of ${oneOf(REDACTION_ENTITIES)}` }))
    .default(() => [...REDACTION_ENTITIES]),
  replaceStyle: z
    .enum(REPLACE_STYLES, { error: `"replaceStyle" must be one of ${oneOf(REPLACE_STYLES)}` })
    .default('tag'),
});
export type Redaction = z.output<typeof redactionSchema>;

/**
 * `redactPII`: a boolean, or a redaction object validated field by field (a plain union would report only
 * "invalid input" for a bad `mode` inside the object).
 */
const redactPIISchema = z
  .union([z.boolean(), z.looseObject({})], {
    error: '"redactPII" must be a boolean or a redaction object {mode, entities, replaceStyle}',
  })
  .transform((value, context): boolean | Redaction => {
    if (typeof value === 'boolean') return value;
    const result = redactionSchema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) {
      const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
      for (const key of keys) {
        context.addIssue({
          code: 'custom',
          path: key === undefined ? issue.path : [...issue.path, key],
          message: key === undefined ? issue.message : `Unrecognized key "${key}"`,
        });
      }
    }
    return z.NEVER;
  });

export const auditMetadataSchema = z.strictObject({
  username: z
    .string({ error: '"username" is required and must be a string' })
    .max(MAX_AUDIT_USERNAME_LENGTH, `"username" must be at most ${MAX_AUDIT_USERNAME_LENGTH} characters`),
});

const stringList = z.array(z.string());

/**
 * The whole options object. Unknown top-level keys are refused rather than dropped, so a misspelt option
 * (`onlyMainContnet`) is reported before upload instead of being silently ignored.
 */
export const parseOptionsSchema = z
  .strictObject({
    /** @default [{type:'markdown'}] */
    formats: z.array(formatSchema).default(() => [{ type: 'markdown' as const }]),
    /** @default true */
    onlyMainContent: z.boolean().default(true),
    includeTags: stringList.optional(),
    excludeTags: stringList.optional(),
    headers: z.record(z.string(), z.string()).optional(),
    /** Milliseconds, at most 300000. @default 30000 */
    timeout: z
      .number({ error: '"timeout" must be an integer number of milliseconds' })
      .int('"timeout" must be an integer number of milliseconds')
      .positive('"timeout" must be positive')
      .max(MAX_TIMEOUT_MS, `"timeout" must be at most ${MAX_TIMEOUT_MS} ms`)
      .default(DEFAULT_TIMEOUT_MS),
    /** @default [{type:'pdf'}] */
    parsers: z.array(parserSchema).default(() => [{ ...DEFAULT_PDF_PARSER }]),
    /** @default true */
    skipTlsVerification: z.boolean().default(true),
    /** @default true */
    removeBase64Images: z.boolean().default(true),
    /** @default true */
    blockAds: z.boolean().default(true),
    /** `true` for the defaults, or a redaction object. @default false */
    redactPII: redactPIISchema.default(false),
    proxy: z.enum(PROXY_VALUES, { error: `"proxy" must be one of ${oneOf(PROXY_VALUES)}` }).optional(),
    /** @default 'api' */
    origin: z.string().default('api'),
    integration: z.string().nullable().optional(),
    auditMetadata: auditMetadataSchema.optional(),
    /** @default false */
    zeroDataRetention: z.boolean().default(false),
  })
  .superRefine((options, context) => {
    if (options.parsers.length > 1) {
      context.addIssue({
        code: 'custom',
        path: ['parsers'],
        message: 'At most one pdf parser object may be given',
      });
    }
    const seen = new Set<string>();
    options.formats.forEach((format, index) => {
      if (seen.has(format.type)) {
        context.addIssue({
          code: 'custom',
          path: ['formats', index, 'type'],
          message: `Format "${format.type}" is listed twice`,
        });
      }
      seen.add(format.type);
    });
  });

/** Options as a user writes them (every field optional). */
export type ParseOptionsInput = z.input<typeof parseOptionsSchema>;
/** Options after validation, every default applied. */
export type ParseOptions = z.output<typeof parseOptionsSchema>;

/** The PDF parser settings in force for these options (the defaults when none was given). */
export function pdfParserOf(options: ParseOptions): PdfParser {
  return options.parsers[0] ?? DEFAULT_PDF_PARSER;
}

export function wantsFormat(options: ParseOptions, type: FormatType): boolean {
  return options.formats.some((format) => format.type === type);
}
