/** optionsFingerprint: same options in any key order → same fingerprint; any changed value → another. */
import { describe, expect, it } from 'vitest';
import { validateParseOptions, type ParseOptions } from '../../src/contract/index.js';
import { canonicalJson, optionsFingerprint } from '../../src/store/options-fingerprint.js';

function validated(input: unknown): ParseOptions {
  const result = validateParseOptions(input);
  if (!result.ok) throw new Error(`invalid options in test: ${JSON.stringify(result.body)}`);
  return result.options;
}

const BASE = {
  formats: [{ type: 'markdown' }, { type: 'json', schema: { type: 'object', properties: { a: { type: 'string' } } } }],
  parsers: [{ type: 'pdf', mode: 'ocr', maxPages: 20, pages: true }],
  timeout: 60_000,
  headers: { 'x-b': '2', 'x-a': '1' },
};

describe('optionsFingerprint', () => {
  it('is 16 lowercase hex digits', () => {
    expect(optionsFingerprint(validated({}))).toMatch(/^[0-9a-f]{16}$/);
  });

  it('is the same for equivalent options written in another key order, at every depth', () => {
    const reordered = {
      headers: { 'x-a': '1', 'x-b': '2' },
      timeout: 60_000,
      parsers: [{ pages: true, maxPages: 20, mode: 'ocr', type: 'pdf' }],
      formats: [{ type: 'markdown' }, { schema: { properties: { a: { type: 'string' } }, type: 'object' }, type: 'json' }],
    };
    expect(optionsFingerprint(validated(reordered))).toBe(optionsFingerprint(validated(BASE)));
  });

  it('is the same for omitted defaults and spelled-out defaults', () => {
    const spelledOut = validated({
      formats: [{ type: 'markdown' }],
      onlyMainContent: true,
      timeout: 30_000,
      parsers: ['pdf'],
      redactPII: false,
    });
    expect(optionsFingerprint(spelledOut)).toBe(optionsFingerprint(validated({})));
  });

  it.each<[string, Record<string, unknown>]>([
    ['timeout', { timeout: 60_001 }],
    ['parser mode', { parsers: [{ type: 'pdf', mode: 'fast', maxPages: 20, pages: true }] }],
    ['maxPages', { parsers: [{ type: 'pdf', mode: 'ocr', maxPages: 21, pages: true }] }],
    ['a nested schema value', { formats: [{ type: 'markdown' }, { type: 'json', schema: { type: 'array' } }] }],
    ['a header value', { headers: { 'x-b': '3', 'x-a': '1' } }],
    ['format order', { formats: [{ type: 'json', schema: BASE.formats[1]!.schema }, { type: 'markdown' }] }],
    ['redaction', { redactPII: true }],
  ])('changes when %s changes', (_name, change) => {
    expect(optionsFingerprint(validated({ ...BASE, ...change }))).not.toBe(optionsFingerprint(validated(BASE)));
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth, keeps array order and drops undefined values', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[3,{"y":2,"z":1}]},"b":1}');
  });
});

describe('optionsFingerprint with processing settings', () => {
  const options = validated(BASE);

  it('is the options\' own fingerprint when no setting is given, so outputs made before settings existed are reused', () => {
    expect(optionsFingerprint(options, {})).toBe(optionsFingerprint(options));
    expect(optionsFingerprint(options, { chunks: undefined })).toBe(optionsFingerprint(options));
  });

  it('changes with each setting, so changing one re-parses', () => {
    const plain = optionsFingerprint(options);
    const chunked = optionsFingerprint(options, { chunks: { maxTokens: 512, overlapTokens: 0 } });
    const smaller = optionsFingerprint(options, { chunks: { maxTokens: 256, overlapTokens: 0 } });
    const german = optionsFingerprint(options, { ocrLanguages: ['deu'] });
    expect(new Set([plain, chunked, smaller, german]).size).toBe(4);
  });
});
