/**
 * The json format on the local engine, against an OpenAI-compatible endpoint served on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError } from '../../src/backend/errors.js';
import type { UploadSource } from '../../src/backend/upload-source.js';
import { LocalParseEngine } from '../../src/engine/local-engine.js';
import { openAiJsonExtractor } from '../../src/llm/openai-json-extractor.js';
import { startHandlerServer, type HandlerServer } from '../helpers/loopback-servers.js';

function csv(text: string): UploadSource {
  const bytes = Buffer.from(text);
  return { fileName: 'prices.csv', size: bytes.byteLength, open: async function* () { yield bytes; } };
}

interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  response_format: { type: string; json_schema?: { schema: unknown } };
}

let server: HandlerServer;
let baseUrl: string;
const received: { authorization?: string; body: ChatRequest }[] = [];
let reply: { status: number; content: string } = { status: 200, content: '{"total": 7}' };

beforeAll(async () => {
  server = await startHandlerServer((request) => {
    received.push({ authorization: request.headers.authorization, body: JSON.parse(request.text) as ChatRequest });
    return { status: reply.status, json: { choices: [{ message: { role: 'assistant', content: reply.content } }] } };
  });
  baseUrl = `${server.url}/v1`;
});

afterAll(() => server.close());

describe('the json format', () => {
  it('is refused with 400 FORMAT_NOT_AVAILABLE when no endpoint is configured, before any parsing', async () => {
    const engine = new LocalParseEngine({ size: 1 });
    try {
      const error = await engine.parse(csv('a,b\n1,2\n'), { formats: [{ type: 'json' }] }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).apiCode).toBe('FORMAT_NOT_AVAILABLE');
      expect((error as BadRequestError).apiMessage).toContain('DOCMILL_LLM_BASE_URL');
    } finally {
      await engine.close();
    }
  });

  it('sends the Markdown, prompt and schema to the endpoint and returns its JSON as data.json', async () => {
    const engine = new LocalParseEngine({ size: 1, jsonExtractor: openAiJsonExtractor({ baseUrl, model: 'test-model', apiKey: 'llm-key' }) });
    reply = { status: 200, content: '```json\n{"total": 7}\n```' };
    try {
      const schema = { type: 'object', properties: { total: { type: 'number' } } };
      const result = await engine.parse(csv('item,price\ntea,3\ncake,4\n'), { formats: [{ type: 'json', prompt: 'Sum the prices', schema }] });
      expect(result.data.json).toEqual({ total: 7 });
      expect(result.data.markdown).toBeUndefined();
      const call = received.at(-1);
      expect(call?.authorization).toBe('Bearer llm-key');
      expect(call?.body.model).toBe('test-model');
      expect(call?.body.messages[1]?.content).toContain('| tea | 3 |');
      expect(call?.body.messages[0]?.content).toContain('Sum the prices');
      expect(call?.body.response_format.json_schema?.schema).toEqual(schema);
    } finally {
      await engine.close();
    }
  });

  it('keeps the Markdown and reports a failed extraction as a warning, not an error', async () => {
    const engine = new LocalParseEngine({ size: 1, jsonExtractor: openAiJsonExtractor({ baseUrl, model: 'test-model' }) });
    reply = { status: 200, content: 'I cannot do that.' };
    try {
      const result = await engine.parse(csv('a,b\n1,2\n'), { formats: [{ type: 'markdown' }, { type: 'json' }] });
      expect(result.data.markdown).toContain('| a | b |');
      expect(result.data.json).toBeNull();
      expect(result.data.warning).toContain('json extraction failed: the model did not answer with JSON');
    } finally {
      await engine.close();
    }
  });
});
