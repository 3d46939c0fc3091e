// node llamaindex.mjs out/report.pdf.chunks.jsonl
// docmill chunks as LlamaIndex.TS TextNodes: id, text, character offsets into the document's Markdown, provenance
// as metadata (ids and boxes kept out of what is embedded and shown to the model), the source document and the
// previous / next chunk as relationships.
import { NodeRelationship, TextNode } from 'llamaindex';
import { metadataOf, readChunks } from './read-chunks.mjs';

const NOT_FOR_THE_MODEL = ['chunkId', 'sha256', 'charStart', 'charEnd', 'tokens', 'blocks', 'headingPath'];

export async function loadNodes(path) {
  const chunks = await readChunks(path);
  return chunks.map((chunk, index) => {
    const relationships = {};
    if (chunk.source) relationships[NodeRelationship.SOURCE] = { nodeId: chunk.source.sha256, metadata: { path: chunk.source.path } };
    if (index > 0) relationships[NodeRelationship.PREVIOUS] = { nodeId: chunks[index - 1].id };
    if (index < chunks.length - 1) relationships[NodeRelationship.NEXT] = { nodeId: chunks[index + 1].id };
    return new TextNode({
      id_: chunk.id,
      text: chunk.text,
      // Offsets of the chunk's own Markdown (after a repeated table header, when there is one). TextNode keeps a
      // start of 0 as undefined: read `startCharIdx ?? 0`.
      startCharIdx: chunk.charStart,
      endCharIdx: chunk.charEnd,
      metadata: metadataOf(chunk),
      excludedEmbedMetadataKeys: NOT_FOR_THE_MODEL,
      excludedLlmMetadataKeys: NOT_FOR_THE_MODEL,
      relationships,
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = process.argv[2];
  if (!path) throw new Error('usage: node llamaindex.mjs <file>.chunks.jsonl');
  const nodes = await loadNodes(path);
  console.log(`${nodes.length} LlamaIndex TextNodes`);
  const [first] = nodes;
  if (first) console.log(JSON.stringify({ id: first.id_, text: first.text.slice(0, 80), metadata: first.metadata, next: first.nextNode?.nodeId ?? null }, null, 2));
}
