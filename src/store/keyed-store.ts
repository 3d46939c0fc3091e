/**
 * What both stores do the same way, on top of two primitives each implements for its medium: read a key, write a
 * key atomically. Outputs, state records and the content index live here once; the medium-specific parts (the
 * manifest, reading failures back, closing) stay in FsStore and S3Store.
 */
import { chunkId } from '../chunk/chunk.js';
import { checkWorkKey, indexKey, outputFiles, outputKey, prettyJson, recordedOutputs, retargetChunks, stateKey } from './layout.js';
import type { DocumentOutputs, DocumentState, ManifestEntry, OutputStore } from './output-store.js';
import { parseStateRecord } from './records.js';
import { OutputMissingError } from './store-errors.js';

export abstract class KeyedOutputStore implements OutputStore {
  abstract readonly location: string;

  /** The bytes or text stored under `key` (relative to the store root), or undefined when there is none. */
  protected abstract readKey(key: string): Promise<Uint8Array | string | undefined>;
  /** Stores `body` under `key`, atomically: readers see the old value or the whole new one. */
  protected abstract writeKey(key: string, body: string | Uint8Array): Promise<void>;

  /** Removes the file or object under `key`; nothing there is not an error. */
  protected abstract deleteKey(key: string): Promise<void>;

  /** The stored bytes under `key` (text-only readers override this for binary work files). */
  protected async readBytes(key: string): Promise<Uint8Array | undefined> {
    const body = await this.readKey(key);
    return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  }

  abstract appendManifest(entry: ManifestEntry): Promise<void>;
  abstract readFailures(): AsyncIterable<ManifestEntry>;
  abstract close(): Promise<void>;

  async writeDocument(relativePath: string, outputs: DocumentOutputs): Promise<string[]> {
    const files = outputFiles(relativePath, outputs);
    await Promise.all(files.map((file) => this.writeKey(file.key, file.body)));
    return files.map((file) => file.key);
  }

  async copyDocument(from: DocumentState, toRelativePath: string): Promise<string[]> {
    // Read everything first: a missing output then fails the copy before anything is written at the target.
    // (On S3, CopyObject would save the round trip but needs read rights on the source key all the same.)
    const copies = await Promise.all(
      recordedOutputs(from).map(async ({ kind, key }) => {
        const body = await this.readKey(key);
        if (body === undefined) throw new OutputMissingError(key);
        // Chunks name their document's path (and their ids include it): the copy's chunks name the copy.
        if (kind === 'chunks') {
          const retargeted = retargetChunks(asText(body), toRelativePath, (chunk) => chunkId(chunk.source, chunk.charStart, chunk.charEnd, chunk.text));
          return { key: outputKey(toRelativePath, kind), body: retargeted };
        }
        return { key: outputKey(toRelativePath, kind), body };
      }),
    );
    await Promise.all(copies.map((copy) => this.writeKey(copy.key, copy.body)));
    return copies.map((copy) => copy.key);
  }

  async readState(relativePath: string): Promise<DocumentState | undefined> {
    const key = stateKey(relativePath);
    const body = await this.readKey(key);
    if (body === undefined) return undefined;
    const state = parseStateRecord(asText(body), key);
    // Two unusual source paths can share a safe path; a state recorded for the other one is not ours.
    return state.relativePath === relativePath ? state : undefined;
  }

  async writeState(state: DocumentState): Promise<void> {
    const keys = { state: stateKey(state.relativePath), index: indexKey(state.sha256, state.optionsFingerprint) };
    const body = prettyJson(state, keys.state);
    // State first: the index only ever points at content whose state is already recorded.
    await this.writeKey(keys.state, body);
    await this.writeKey(keys.index, body);
  }

  async writeWorkFile(key: string, body: string | Uint8Array): Promise<void> {
    await this.writeKey(checkWorkKey(key), body);
  }

  async readWorkFile(key: string): Promise<Uint8Array | undefined> {
    return this.readBytes(checkWorkKey(key));
  }

  async deleteWorkFiles(keys: readonly string[]): Promise<void> {
    for (const key of keys) checkWorkKey(key);
    await Promise.all(keys.map((key) => this.deleteKey(key)));
  }

  async findByContent(sha256: string, optionsFingerprint: string): Promise<DocumentState | undefined> {
    const key = indexKey(sha256, optionsFingerprint);
    const body = await this.readKey(key);
    return body === undefined ? undefined : parseStateRecord(asText(body), key);
  }
}

function asText(body: Uint8Array | string): string {
  return typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}
