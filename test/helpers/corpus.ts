/**
 * The real documents the tests read: test/fixtures/corpus/<ext>/<file>, copied with their origin and licence from
 * other projects' test data (see test/fixtures/corpus/SOURCES.md). The repository stands alone: nothing here reads
 * a folder outside it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CORPUS_URL = new URL('../fixtures/corpus/', import.meta.url);

export function corpusFile(relative: string): string {
  return fileURLToPath(new URL(relative, CORPUS_URL));
}
export function readCorpusBytes(relative: string): Uint8Array {
  return new Uint8Array(readFileSync(corpusFile(relative)));
}
