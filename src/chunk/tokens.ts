/**
 * Token counts for chunk budgets: cl100k_base, the encoding of OpenAI's embedding models (text-embedding-3-small,
 * -3-large, ada-002), from gpt-tokenizer, whose rank tables ship inside the npm package (nothing is downloaded).
 *
 * The encoding module is loaded on the first count, not when docmill is imported: its tables take about 0.3 s to
 * load, which every library import and CLI command would otherwise pay. It is loaded with require (gpt-tokenizer
 * ships a CommonJS build) so that chunk() stays synchronous; only this one encoding's module is loaded.
 */
import { createRequire } from 'node:module';

export const TOKEN_ENCODING = 'cl100k_base';

interface Encoding {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
}

let encoding: Encoding | undefined;

function load(): Encoding {
  encoding ??= createRequire(import.meta.url)('gpt-tokenizer/encoding/cl100k_base') as Encoding;
  return encoding;
}

/** Special-token spellings (`<|endoftext|>`) in a document are its text, counted as ordinary characters. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

export function countTokens(text: string): number {
  if (text === '') return 0;
  return load().countTokens(text, AS_TEXT);
}
