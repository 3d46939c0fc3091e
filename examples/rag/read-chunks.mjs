// Reads a docmill chunks file (<file>.chunks.jsonl): one chunk object a line.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** @returns {Promise<Array<import('docmill').Chunk>>} */
export async function readChunks(path) {
  const chunks = [];
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) if (line.trim() !== '') chunks.push(JSON.parse(line));
  return chunks;
}

/** Flat metadata most vector stores accept (strings, numbers, string lists); boxes stay in `blocks` as JSON. */
export function metadataOf(chunk) {
  return {
    chunkId: chunk.id,
    source: chunk.source?.path ?? null,
    sha256: chunk.source?.sha256 ?? null,
    headingPath: chunk.headingPath,
    section: chunk.headingPath.join(' > '),
    pageStart: chunk.pageStart,
    pageEnd: chunk.pageEnd,
    charStart: chunk.charStart,
    charEnd: chunk.charEnd,
    tokens: chunk.tokens,
    blocks: JSON.stringify(chunk.blocks),
  };
}
