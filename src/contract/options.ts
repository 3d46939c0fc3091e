/**
 * The parse options object (spec: "Parse options", "PDF parser object", "Redaction object") as zod schemas.
 * Parsing an options object validates every rule and applies every default, so the output is the complete
 * options object the API will act on. The client sends that output; the server (docmill serve) acts on it.
 *
 * The input side also takes what the hosted API's own SDK (@mendable/firecrawl-js) sends beyond the contract's
 * shapes: format names alone ('markdown' for {type:'markdown'}), the parsers 'pdf' and 'image' as strings, and a few
 * fields that mean nothing for a parse of an uploaded file. They are normalised or dropped here, so the output has
 * one shape and nothing after validation sees them. The line: what the SDK can send is accepted when it is either
 * used or harmless to ignore; a key it never sends, a wrong type, and a request docmill would silently fail (an output
 * it cannot produce, a safety check it does not run) stay 400s naming the field. docs/parse-api-v2.md, section
 * "docmill: accepted beyond the contract", lists each field and why.
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

/** Formats that take no parameters: each may be written as its name alone, 'markdown' for {type:'markdown'}. */
export const SHORTHAND_FORMAT_TYPES = ['markdown', 'summary', 'html', 'rawHtml', 'links', 'images'] as const;
export type ShorthandFormat = (typeof SHORTHAND_FORMAT_TYPES)[number];

const formatTypeList = FORMAT_TYPES.join(', ');

function oneOf(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(', ');
}

/**
 * A schema that checks at run time exactly what `schema` checks, typed as taking `Input`. For the elements that
 * accept a shorthand: they are written as `union([shorthand, unknown]).pipe(object schema)`, so that a mistake inside
 * the object is reported at its own path (a plain union reports only "invalid input"), and zod types that input as
 * `unknown`.
 */
function typedInput<Input>() {
  return <Schema extends z.ZodType>(schema: Schema) => schema as unknown as z.ZodType<z.output<Schema>, Input>;
}

const simpleFormat = (type: Exclude<FormatType, 'json'>) => z.strictObject({ type: z.literal(type) });

const jsonFormat = z
  .strictObject({
    type: z.literal('json'),
    /** A JSON Schema the extracted object must conform to. */
    schema: z.record(z.string(), z.unknown()).optional(),
    /** Instructions for the extraction. */
    prompt: z.string().optional(),
    /**
     * The hosted API's prompt-injection check (its SDK types it). docmill runs no such check, so `false` is accepted
     * and dropped, and `true` is refused rather than silently not honoured.
     */
    checkPromptInjection: z
      .literal(false, {
        error: '"checkPromptInjection" must be false or absent: docmill runs no prompt-injection check on the document',
      })
      .optional(),
  })
  .transform(({ checkPromptInjection: _notChecked, ...format }) => format);

function unsupportedFormat(type: unknown): string {
  const named = typeof type === 'string' ? ` ${JSON.stringify(type)}` : '';
  return `Unsupported format type${named}: parse accepts ${formatTypeList} (browser-rendering formats and change tracking are not supported by parse)`;
}

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
      const { input } = issue;
      if (input === 'json') {
        return 'The json format needs a "schema" or a "prompt", so it cannot be written as a name alone: use {"type":"json","schema":{...}} or {"type":"json","prompt":"..."}';
      }
      if (typeof input === 'string') return unsupportedFormat(input);
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        return `Each format must be an object with a "type", such as {"type":"markdown"}, or the name of a format without parameters (${SHORTHAND_FORMAT_TYPES.join(', ')})`;
      }
      return unsupportedFormat((input as { type?: unknown }).type);
    },
  },
);
export type Format = z.output<typeof formatSchema>;
/** A format as a caller may write it: the object, or the name alone of a format that takes no parameters. */
export type FormatInput = z.input<typeof formatSchema> | ShorthandFormat;

/** An element of `formats` as written: a shorthand name becomes its object. */
const formatElementSchema = typedInput<FormatInput>()(
  z.union([z.enum(SHORTHAND_FORMAT_TYPES).transform((type) => ({ type })), z.unknown()]).pipe(formatSchema),
);

const PARSER_TYPE_MESSAGE = `Parser "type" must be 'pdf', the only parser defined ('image' is also accepted, and changes nothing: docmill takes no image files)`;

const pdfParserFields = {
  type: z.literal('pdf', { error: PARSER_TYPE_MESSAGE }),
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
};

/** The PDF parser object; it allows no keys other than these. */
export const pdfParserSchema = z.strictObject(pdfParserFields);
export type PdfParser = z.output<typeof pdfParserSchema>;

/**
 * The PDF parser object as the SDK may send it: `pageMarkdown` is the former name of `pages`, which the hosted API
 * still takes as an alias; either one asks for pages.
 */
const pdfParserAsWritten = z
  .strictObject({ ...pdfParserFields, pageMarkdown: z.boolean().optional() })
  .transform(({ pageMarkdown, ...parser }): PdfParser => ({ ...parser, pages: parser.pages || pageMarkdown === true }));

/**
 * The hosted API's image parser (raster images as one-page documents), part of its default parsers. docmill takes
 * no image files (they are refused by extension), so the parser can change nothing: it is accepted and dropped.
 */
const imageParserSchema = z.strictObject({ type: z.literal('image') });

/** A parser as a caller may write it: the object, or its type alone ('pdf', 'image'). */
export type ParserInput = z.input<typeof pdfParserAsWritten> | z.input<typeof imageParserSchema> | 'pdf' | 'image';

const parserElementSchema = typedInput<ParserInput>()(
  z
    .union([z.enum(['pdf', 'image']).transform((type) => ({ type })), z.unknown()])
    .pipe(z.discriminatedUnion('type', [pdfParserAsWritten, imageParserSchema], { error: () => PARSER_TYPE_MESSAGE })),
);

/** `parsers`: each type at most once; the output keeps the PDF parser only (see imageParserSchema). */
const parsersSchema = z
  .array(parserElementSchema)
  .superRefine((parsers, context) => {
    const seen = new Set<string>();
    parsers.forEach((parser) => {
      if (seen.has(parser.type)) {
        context.addIssue({
          code: 'custom',
          message: parser.type === 'pdf' ? 'At most one pdf parser object may be given' : `At most one ${parser.type} parser may be given`,
        });
      }
      seen.add(parser.type);
    });
  })
  .transform((parsers) => parsers.filter((parser): parser is PdfParser => parser.type === 'pdf'));

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
 * Fields the SDK's parse options carry (its types offer them; it passes them on as given) that mean nothing for a
 * parse of an uploaded file: `fastMode` and `useMock` (a scrape's speed mode and recorded-response replay),
 * `profile` (a browser profile) and `domainTools` (tools discovered for a URL's domain; an upload has no URL). Each
 * is checked for the type the SDK declares, so a wrong value is still named, then dropped.
 */
const ignoredSdkFields = {
  fastMode: z.boolean().optional(),
  useMock: z.string().optional(),
  profile: z.strictObject({ name: z.string(), saveChanges: z.boolean().optional() }).optional(),
  domainTools: z.boolean().optional(),
};

/**
 * The whole options object. Unknown top-level keys are refused rather than dropped, so a misspelt option
 * (`onlyMainContnet`) is reported before upload instead of being silently ignored.
 */
export const parseOptionsSchema = z
  .strictObject({
    /** Format objects, or the names alone of those without parameters. @default [{type:'markdown'}] */
    formats: z.array(formatElementSchema).default(() => [{ type: 'markdown' as const }]),
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
    /** Parser objects, or 'pdf' (or 'image') alone; the output keeps the PDF parser. @default [{type:'pdf'}] */
    parsers: parsersSchema.default(() => [{ ...DEFAULT_PDF_PARSER }]),
    /** @default true */
    skipTlsVerification: z.boolean().default(true),
    /** @default true */
    removeBase64Images: z.boolean().default(true),
    /** @default true */
    blockAds: z.boolean().default(true),
    /** `true` for the defaults, or a redaction object. @default false */
    redactPII: redactPIISchema.default(false),
    proxy: z.enum(PROXY_VALUES, { error: `"proxy" must be one of ${oneOf(PROXY_VALUES)}` }).optional(),
    /** Who is calling, for the API's analytics; the SDK sends `js-sdk@<version>`. @default 'api' */
    origin: z.string().default('api'),
    integration: z.string().nullable().optional(),
    auditMetadata: auditMetadataSchema.optional(),
    /** @default false */
    zeroDataRetention: z.boolean().default(false),
    ...ignoredSdkFields,
  })
  .superRefine((options, context) => {
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
  })
  .transform(({ fastMode: _fastMode, useMock: _useMock, profile: _profile, domainTools: _domainTools, ...options }) => options);

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
