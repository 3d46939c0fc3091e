// node langchain.mjs out/report.pdf.chunks.jsonl
// docmill chunks as LangChain.js Documents: the chunk text is the page content, provenance is the metadata, and the
// chunk id is the document id (stable across reruns, so re-indexing a document replaces its vectors).
import { Document } from '@langchain/core/documents';
import { metadataOf, readChunks } from './read-chunks.mjs';

export async function loadDocuments(path) {
  const chunks = await readChunks(path);
  return chunks.map((chunk) => new Document({ id: chunk.id, pageContent: chunk.text, metadata: metadataOf(chunk) }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = process.argv[2];
  if (!path) throw new Error('usage: node langchain.mjs <file>.chunks.jsonl');
  const documents = await loadDocuments(path);
  console.log(`${documents.length} LangChain Documents`);
  const [first] = documents;
  if (first) console.log(JSON.stringify({ id: first.id, pageContent: first.pageContent.slice(0, 80), metadata: first.metadata }, null, 2));
}
