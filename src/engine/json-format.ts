/**
 * The `json` format on the local engine. Extraction needs a language model, which the engine does not have: the
 * caller injects a JsonExtractor (src/llm/ has one for OpenAI-compatible endpoints). Without one the format is
 * refused (400) before any parsing. A failed extraction does not fail the parse: the Markdown is still good, and
 * the contract's `warning` field is where extraction problems go.
 */
import type { Format, ParseOptions } from '../contract/options.js';
import type { ParseData } from '../contract/response.js';
import { EngineError } from './engine-error.js';

export type JsonFormat = Extract<Format, { type: 'json' }>;

/** Turns a document's Markdown into the JSON the format asks for. */
export type JsonExtractor = (markdown: string, format: JsonFormat, signal?: AbortSignal) => Promise<unknown>;

export function jsonFormatOf(options: ParseOptions): JsonFormat | undefined {
  return options.formats.find((format): format is JsonFormat => format.type === 'json');
}

/** Refuses the json format up front when no extractor is configured. */
export function assertJsonAvailable(options: ParseOptions, extractor: JsonExtractor | undefined): void {
  if (jsonFormatOf(options) && !extractor) {
    throw new EngineError(
      'FORMAT_NOT_AVAILABLE',
      'the json format needs a language model: set DOCMILL_LLM_BASE_URL and DOCMILL_LLM_MODEL (and DOCMILL_LLM_API_KEY) ' +
        'to an OpenAI-compatible endpoint, or use a remote parse API',
    );
  }
}

/** Adds `data.json` when the json format was asked for. */
export async function addJsonExtraction(
  data: ParseData,
  markdown: string,
  options: ParseOptions,
  extractor: JsonExtractor | undefined,
  signal?: AbortSignal,
): Promise<ParseData> {
  const format = jsonFormatOf(options);
  if (!format || !extractor) return data;
  try {
    data.json = await extractor(markdown, format, signal);
  } catch (error) {
    const message = `json extraction failed: ${error instanceof Error ? error.message : String(error)}`;
    data.json = null;
    data.warning = data.warning ? `${data.warning} ${message}` : message;
  }
  return data;
}

/** Parses with the local engine's pool, then adds `data.json` when asked: used by the backend and by `serve`. */
export async function parseWithJsonFormat(
  run: (bytes: Uint8Array, fileName: string, options: ParseOptions) => Promise<ParseData>,
  bytes: Uint8Array,
  fileName: string,
  options: ParseOptions,
  extractor: JsonExtractor | undefined,
  signal?: AbortSignal,
): Promise<ParseData> {
  assertJsonAvailable(options, extractor);
  if (!jsonFormatOf(options)) return run(bytes, fileName, options);
  const wantsMarkdown = options.formats.some((format) => format.type === 'markdown');
  // Extraction reads the Markdown even when the caller did not ask for it.
  const data = await run(bytes, fileName, wantsMarkdown ? options : { ...options, formats: [...options.formats, { type: 'markdown' }] });
  const markdown = data.markdown ?? '';
  if (!wantsMarkdown) delete data.markdown;
  return addJsonExtraction(data, markdown, options, extractor, signal);
}
