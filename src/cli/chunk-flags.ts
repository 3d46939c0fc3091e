/**
 * `--chunks`, `--chunk-tokens <n>`, `--chunk-overlap <n>`: retrieval chunks beside the Markdown (`run`, `watch`,
 * `enqueue`), or instead of it on stdout (`parse`). Either number implies `--chunks`.
 */
import type { Command } from 'commander';
import type { ChunkOptions } from '../app/options.js';
import { processingSettingsFrom, type ChunkSettings } from '../app/processing-settings.js';
import { integerSetting } from '../app/settings.js';

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
