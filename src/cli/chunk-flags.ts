/**
 * `--chunks`, `--chunk-tokens <n>`, `--chunk-overlap <n>`: retrieval chunks beside the Markdown (`run`, `watch`,
 * `enqueue`), or instead of it on stdout (`parse`). Either number implies `--chunks`.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Command } from 'commander';
import type { ChunkOptions } from '../app/options.js';
import { processingSettingsFrom } from '../app/processing-settings.js';
import { chunk } from '../chunk/chunk.js';
import type { ChunkSettings } from '../common/processing-settings.js';
import { integerSetting } from '../config/numbers.js';
import type { ParseData } from '../contract/response.js';

export interface ChunkFlags {
  chunks?: boolean;
  chunkTokens?: string;
  chunkOverlap?: string;
}

export function addChunkFlags(command: Command): Command {
  return command
    .option('--chunks', 'write retrieval chunks (<file>.chunks.jsonl; parse: JSON lines instead of the Markdown)')
    .option('--chunk-tokens <n>', 'the most tokens (cl100k_base) in a chunk (default 512; implies --chunks)')
    .option('--chunk-overlap <n>', 'tokens of a chunk repeated at the start of the next in its section (default 0; implies --chunks)');
}

/** The library's `chunks` option the flags ask for; undefined when none was given. */
export function chunksFromFlags(flags: ChunkFlags): ChunkOptions | undefined {
  if (!flags.chunks && flags.chunkTokens === undefined && flags.chunkOverlap === undefined) return undefined;
  return {
    maxTokens: flags.chunkTokens === undefined ? undefined : integerSetting(flags.chunkTokens, '--chunk-tokens'),
    overlapTokens: flags.chunkOverlap === undefined ? undefined : integerSetting(flags.chunkOverlap, '--chunk-overlap', { min: 0 }),
  };
}

/** The chunk settings the flags ask for, checked as the library checks them (overlap below the budget...). */
export function chunkSettingsFromFlags(flags: ChunkFlags): ChunkSettings | undefined {
  const chunks = chunksFromFlags(flags);
  return chunks === undefined ? undefined : processingSettingsFrom({ chunks }).chunks;
}

/** `parse --chunks`: the chunks of one parsed file as JSON lines, its source named by the path as given. */
export async function chunkLines(path: string, data: ParseData, settings: ChunkSettings): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of createReadStream(path)) hash.update(piece as Buffer);
  const chunks = chunk(data, { ...settings, source: { path, sha256: hash.digest('hex') } });
  return chunks.map((entry) => `${JSON.stringify(entry)}\n`).join('');
}
