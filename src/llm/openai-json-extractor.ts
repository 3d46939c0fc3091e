/**
 * A JsonExtractor over an OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama's `/v1`...): the
 * document's Markdown is sent with the format's `prompt` and `schema`, and the answer is parsed as JSON. It lives
 * outside the engine, which only knows the JsonExtractor port, so converting documents never makes a network call
 * of its own; whoever builds the engine (the composition root) decides whether a model is configured.
 */
import type { JsonExtractor, JsonFormat } from '../engine/json-format.js';

export interface LlmConfig {
  /** The endpoint's base URL, up to `/v1` (no trailing slash). */
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
}

/** Markdown beyond this is cut before it is sent: models have context limits, and cost grows with length. */
const MAX_MARKDOWN_CHARACTERS = 200_000;

export function openAiJsonExtractor(config: LlmConfig): JsonExtractor {
  return (markdown, format, signal) => extractJson(markdown, format, config, signal);
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
  // Loaded on use: most runs never call a model.
  const { request } = await import('undici');
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
