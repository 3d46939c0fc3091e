/**
 * The `json` format on the local engine: the document's Markdown is sent to an OpenAI-compatible chat-completions
 * endpoint with the format's `prompt` and `schema`, and the answer becomes `data.json`. Without an endpoint
 * configured the format is refused (400) before any parsing, since no local model exists here.
 *
 * Configure: DOCMILL_LLM_BASE_URL (e.g. https://api.openai.com/v1, or a local vLLM/Ollama `/v1`),
 * DOCMILL_LLM_MODEL, and DOCMILL_LLM_API_KEY when the endpoint wants one.
 */
import { request } from 'undici';
import type { Format, ParseOptions } from '../contract/options.js';
import type { ParseData } from '../contract/response.js';
import { EngineError } from './engine-error.js';

export interface LlmConfig {
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
}

/** Markdown beyond this is cut before it is sent: models have context limits, and cost grows with length. */
const MAX_MARKDOWN_CHARACTERS = 200_000;

export function llmConfigFromEnv(env: NodeJS.ProcessEnv = process.env): LlmConfig | undefined {
  const baseUrl = env.DOCMILL_LLM_BASE_URL?.trim();
  const model = env.DOCMILL_LLM_MODEL?.trim();
  if (!baseUrl || !model) return undefined;
  return { baseUrl: baseUrl.replace(/\/+$/, ''), model, apiKey: env.DOCMILL_LLM_API_KEY?.trim() || undefined };
}

type JsonFormat = Extract<Format, { type: 'json' }>;

export function jsonFormatOf(options: ParseOptions): JsonFormat | undefined {
  return options.formats.find((format): format is JsonFormat => format.type === 'json');
}

/** Refuses the json format up front when no endpoint is configured. */
export function assertJsonAvailable(options: ParseOptions, config: LlmConfig | undefined): void {
  if (jsonFormatOf(options) && !config) {
    throw new EngineError(
      'FORMAT_NOT_AVAILABLE',
      'the json format needs a language model: set DOCMILL_LLM_BASE_URL and DOCMILL_LLM_MODEL (and DOCMILL_LLM_API_KEY) ' +
        'to an OpenAI-compatible endpoint, or use a remote parse API',
    );
  }
}

/**
 * Adds `data.json` when the json format was asked for. A failed extraction does not fail the parse: the Markdown
 * is still good, and the contract's `warning` field is where extraction problems go.
 */
export async function addJsonExtraction(data: ParseData, markdown: string, options: ParseOptions, config: LlmConfig | undefined, signal?: AbortSignal): Promise<ParseData> {
  const format = jsonFormatOf(options);
  if (!format || !config) return data;
  try {
    data.json = await extractJson(markdown, format, config, signal);
  } catch (error) {
    const message = `json extraction failed: ${error instanceof Error ? error.message : String(error)}`;
    data.json = null;
    data.warning = data.warning ? `${data.warning} ${message}` : message;
  }
  return data;
}

async function extractJson(markdown: string, format: JsonFormat, config: LlmConfig, signal?: AbortSignal): Promise<unknown> {
  const instructions = [
    'Extract structured data from the document below. Answer with one JSON value and nothing else.',
    format.schema ? `The JSON must conform to this JSON Schema:\n${JSON.stringify(format.schema)}` : '',
    format.prompt ? `Instructions: ${format.prompt}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  const body = {
    model: config.model,
    temperature: 0,
    messages: [
      { role: 'system', content: instructions },
      { role: 'user', content: markdown.slice(0, MAX_MARKDOWN_CHARACTERS) },
    ],
    response_format: format.schema
      ? { type: 'json_schema', json_schema: { name: 'extraction', schema: format.schema } }
      : { type: 'json_object' },
  };
  const response = await request(`${config.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
    },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
    headersTimeout: 120_000,
    bodyTimeout: 120_000,
  });
  const text = await response.body.text();
  if (response.statusCode >= 400) throw new Error(`the model endpoint answered HTTP ${response.statusCode}`);
  const reply = JSON.parse(text) as { choices?: { message?: { content?: string } }[] };
  const content = reply.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new Error('the model endpoint sent no message content');
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(content);
  try {
    return JSON.parse((fenced?.[1] ?? content).trim());
  } catch {
    throw new Error('the model did not answer with JSON');
  }
}

/** Parses with the local engine's pool, then adds `data.json` when asked: used by the backend and by `serve`. */
export async function parseLocally(
  run: (bytes: Uint8Array, fileName: string, options: ParseOptions) => Promise<ParseData>,
  bytes: Uint8Array,
  fileName: string,
  options: ParseOptions,
  llm: LlmConfig | undefined,
  signal?: AbortSignal,
): Promise<ParseData> {
  assertJsonAvailable(options, llm);
  if (!jsonFormatOf(options)) return run(bytes, fileName, options);
  const wantsMarkdown = options.formats.some((format) => format.type === 'markdown');
  // Extraction reads the Markdown even when the caller did not ask for it.
  const data = await run(bytes, fileName, wantsMarkdown ? options : { ...options, formats: [...options.formats, { type: 'markdown' }] });
  const markdown = data.markdown ?? '';
  if (!wantsMarkdown) delete data.markdown;
  return addJsonExtraction(data, markdown, options, llm, signal);
}
