/**
 * The parse flags shared by `parse`, `run`, `watch`, `enqueue` and `worker`: `--options FILE` gives the base
 * options object, and the shortcuts override parts of it. The result is validated by src/contract before use.
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { ParseOptionsInput } from '../app/options.js';
import { integerSetting } from '../app/settings.js';
import { addChunkFlags, type ChunkFlags } from './chunk-flags.js';
import { UsageError } from './usage-error.js';

export interface ParseFlags extends ChunkFlags {
  options?: string;
  mode?: string;
  pages?: boolean;
  blocks?: boolean;
  pageMarkers?: boolean;
  maxPages?: string;
  formats?: string;
  timeout?: string;
  /** `--redact-pii` alone is true; with a value, the redaction mode. */
  redactPii?: boolean | string;
  redactEntities?: string;
  redactStyle?: string;
  /** Tesseract languages, `deu+eng` or `deu,eng`: a processing setting (ocrLanguages), not a /v2/parse option. */
  ocrLang?: string;
  /** Pictures as files beside the Markdown: a processing setting (images), not a /v2/parse option. */
  images?: boolean;
  /** Each PDF page rendered to PNG as well (imply --images): a processing setting (pageImages). */
  pageImages?: boolean;
  /** The resolution of rendered PDF figures and pages: a processing setting (imageDpi). */
  imageDpi?: string;
}

export function addParseFlags(command: Command): Command {
  addChunkFlags(command);
  return command
    .option('--options <file>', 'a JSON file holding the /v2/parse options object')
    .option('--mode <mode>', 'PDF mode: fast (text only), auto (text, OCR fallback) or ocr')
    .option('--pages', 'add per-page Markdown (data.pages)')
    .option('--blocks', 'add per-page layout blocks (data.blocks)')
    .option('--page-markers', 'mark page breaks in the Markdown with <!-- page N -->')
    .option('--max-pages <n>', 'parse at most N pages of a PDF (1..10000)')
    .option('--formats <list>', 'comma-separated formats: markdown,summary,html,rawHtml,links,images,json')
    .option('--timeout <ms>', 'per-document timeout in milliseconds (at most 300000)')
    .option('--redact-pii [mode]', 'redact personal data: accurate (default), aggressive or fast')
    .option('--redact-entities <list>', 'comma-separated buckets to redact: PERSON,EMAIL,PHONE,LOCATION,FINANCIAL,SECRET')
    .option('--redact-style <style>', 'how redacted spans read: tag (<EMAIL>), mask (***) or remove')
    .option('--images', 'write every picture as <file>.assets/<name> beside the Markdown, which links to it (parse: needs --out)')
    .option('--page-images', 'also render each PDF page to <file>.assets/page-<n>.png, for vision models (turns on --images)')
    .option('--image-dpi <dpi>', 'resolution of rendered PDF figures and pages, 36..600 (default 150; with --images or --page-images)')
    .option('--ocr-lang <codes>', 'languages OCR reads scans in, local engine only: deu+eng or deu,eng (each needs @tesseract.js-data/<code>)');
}

/** `--ocr-lang deu+eng` (or `deu,eng`) as the library's ocrLanguages; the library checks the codes. */
export function ocrLanguagesFromFlags(flags: ParseFlags): string[] | undefined {
  if (flags.ocrLang === undefined) return undefined;
  const codes = flags.ocrLang
    .split(/[+,]/)
    .map((code) => code.trim())
    .filter(Boolean);
  if (codes.length === 0) throw new UsageError('--ocr-lang needs tesseract language codes, e.g. --ocr-lang deu+eng');
  return codes;
}

type MutableOptions = Record<string, unknown> & { parsers?: unknown[]; formats?: unknown[] };

/** The options object the flags describe; not yet validated (the contract's schema does that). */
export async function optionsFromFlags(flags: ParseFlags): Promise<ParseOptionsInput> {
  const options: MutableOptions = flags.options ? await readOptionsFile(flags.options) : {};
  if (flags.formats !== undefined) options.formats = formatsFrom(flags.formats, options.formats);
  if (flags.timeout !== undefined) options.timeout = numberOrRaw(flags.timeout);
  const redactPII = redactionFrom(flags, options.redactPII);
  if (redactPII !== undefined) options.redactPII = redactPII;
  const pdf: Record<string, unknown> = {};
  if (flags.mode !== undefined) pdf.mode = flags.mode;
  if (flags.pages) pdf.pages = true;
  if (flags.blocks) pdf.blocks = true;
  if (flags.pageMarkers) pdf.pageMarkers = true;
  if (flags.maxPages !== undefined) pdf.maxPages = numberOrRaw(flags.maxPages);
  if (Object.keys(pdf).length > 0) {
    const existing = Array.isArray(options.parsers) ? options.parsers[0] : undefined;
    const base = existing && typeof existing === 'object' ? existing : { type: 'pdf' };
    options.parsers = [{ ...base, ...pdf }, ...(Array.isArray(options.parsers) ? options.parsers.slice(1) : [])];
  }
  return options as ParseOptionsInput;
}

async function readOptionsFile(path: string): Promise<MutableOptions> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--options ${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? error})`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--options ${path}: not valid JSON (${(error as Error).message})`, { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`--options ${path}: must hold a JSON object, the /v2/parse options`);
  }
  return value as MutableOptions;
}

/** `a,b` → [{type:a},{type:b}], keeping a format object from --options (a json schema, say) of the same type. */
function formatsFrom(list: string, existing: unknown[] | undefined): unknown[] {
  const types = list.split(',').map((type) => type.trim()).filter(Boolean);
  return types.map((type) => {
    const previous = existing?.find((format) => typeof format === 'object' && format !== null && (format as { type?: unknown }).type === type);
    return previous ?? { type };
  });
}

/**
 * The `redactPII` the redaction flags ask for, on top of one from --options; undefined when no flag was given.
 * Naming entities or a style implies redaction.
 */
function redactionFrom(flags: ParseFlags, existing: unknown): unknown {
  const { redactPii, redactEntities, redactStyle } = flags;
  if (redactPii === undefined && redactEntities === undefined && redactStyle === undefined) return undefined;
  const base = typeof existing === 'object' && existing !== null ? (existing as Record<string, unknown>) : {};
  const redaction: Record<string, unknown> = { ...base };
  if (typeof redactPii === 'string') redaction.mode = redactPii;
  if (redactEntities !== undefined) {
    redaction.entities = redactEntities.split(',').map((entity) => entity.trim().toUpperCase()).filter(Boolean);
  }
  if (redactStyle !== undefined) redaction.replaceStyle = redactStyle;
  return Object.keys(redaction).length === 0 ? true : redaction;
}

/** A number when the text is one; otherwise the text itself, so validation names the field and the bad value. */
function numberOrRaw(text: string): number | string {
  const value = Number(text);
  return text.trim() !== '' && Number.isFinite(value) ? value : text;
}

/** `--images`, `--page-images` and `--image-dpi` as the library's picture options; the library checks them together. */
export function pictureOptionsFromFlags(flags: ParseFlags): { images: boolean; pageImages: boolean; imageDpi: number | undefined } {
  return {
    images: flags.images === true,
    pageImages: flags.pageImages === true,
    imageDpi: flags.imageDpi === undefined ? undefined : integerSetting(flags.imageDpi, '--image-dpi'),
  };
}
