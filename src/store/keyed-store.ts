/**
 * What both stores do the same way, on top of two primitives each implements for its medium: read a key, write a
 * key atomically. Outputs, state records and the content index live here once (a record an object; FsStore keeps
 * its records in a log of its own, record-log.ts); the medium-specific parts (the manifest, reading failures back,
 * closing) stay in FsStore and S3Store.
 */
import { chunkId } from '../chunk/chunk.js';
import {
  assetFiles,
  assetKey,
  assetReference,
  assetsFolder,
  checkWorkKey,
  documentOutputKeys,
  indexKey,
  outputFiles,
  outputKey,
  prettyJson,
  recordedOutputs,
  retargetChunks,
  STATE_DIR,
  stateKey,
} from './layout.js';
import type { DocumentOutputs, DocumentState, ManifestEntry, OutputStore } from './output-store.js';
import { parseStateRecord } from './records.js';
import { OutputMissingError } from './store-errors.js';

/** What a written key is, which says when it must reach the disk (writeKey). */
export type WriteKind = 'output' | 'record' | 'work';

export abstract class KeyedOutputStore implements OutputStore {
  abstract readonly location: string;

  /** The bytes or text stored under `key` (relative to the store root), or undefined when there is none. */
  protected abstract readKey(key: string): Promise<Uint8Array | string | undefined>;
  /**
   * Stores `body` under `key`, atomically: readers see the old value or the whole new one. `record` marks a state or
   * index record: a store may skip flushing it to disk (a kill still never tears it; a power loss may leave it empty,
   * which reads as no record: the document is converted again; docs/cli.md, "Outputs and the manifest"). An `output`
   * and a `work` file are durable when the promise resolves; a store that flushes outputs together calls `onWait`
   * before it waits for the others (OutputStore.writeDocument). With `after`, the key takes its new value only once
   * `after` has resolved (and not at all when it rejects): a document's Markdown after its pictures.
   */
  protected abstract writeKey(key: string, body: string | Uint8Array, kind?: WriteKind, onWait?: () => void, after?: Promise<void>): Promise<void>;

  /** Removes the file or object under `key`; nothing there is not an error. */
  protected abstract deleteKey(key: string): Promise<void>;

  /** The stored bytes under `key` (text-only readers override this for binary work files). */
  protected async readBytes(key: string): Promise<Uint8Array | undefined> {
    const body = await this.readKey(key);
    return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  }

  /** Keys (relative to the store root) below `folder` (a key prefix ending in '/'), in no particular order. */
  protected abstract keysBelow(folder: string): AsyncIterable<string>;

  abstract appendManifest(entry: ManifestEntry): Promise<void>;
  abstract recordedSince(relativePath: string, since: string): Promise<ManifestEntry | undefined>;
  abstract readFailures(): AsyncIterable<ManifestEntry>;
  abstract close(): Promise<void>;

  async writeDocument(relativePath: string, outputs: DocumentOutputs, onWait?: () => void, onBytes?: (bytes: number) => void): Promise<string[]> {
    const assets = assetFiles(relativePath, outputs.assets ?? []);
    const files = outputFiles(relativePath, outputs);
    onBytes?.([...assets, ...files].reduce((sum, file) => sum + (typeof file.body === 'string' ? Buffer.byteLength(file.body) : file.body.byteLength), 0));
    const waiting = allWaiting(assets.length + files.length, onWait);
    await writeAfterPictures(
      assets.map((file) => (after?: Promise<void>) => this.writeKey(file.key, file.body, 'output', waiting(), after)),
      files.map((file) => (after?: Promise<void>) => this.writeKey(file.key, file.body, 'output', waiting(), after)),
    );
    // The pictures of an earlier conversion that this one no longer has go, now that nothing links to them.
    if (outputs.assets !== undefined) {
      const current = new Set(assets.map((file) => file.key));
      const stale: string[] = [];
      for await (const key of this.keysBelow(assetsFolder(relativePath))) if (!current.has(key)) stale.push(key);
      await Promise.all(stale.map((key) => this.deleteKey(key)));
    }
    return [...files.map((file) => file.key), ...assets.map((file) => file.key)];
  }

  async copyDocument(from: DocumentState, toRelativePath: string, onWait?: () => void): Promise<string[]> {
    // Read everything first: a missing output then fails the copy before anything is written at the target.
    // (On S3, CopyObject would save the round trip but needs read rights on the source key all the same.)
    const recorded = recordedOutputs(from);
    // Links to the pictures name the document's assets folder: the copy's name its own.
    const links = recorded.some((output) => output.kind === 'asset')
      ? { from: assetReference(from.relativePath, ''), to: assetReference(toRelativePath, '') }
      : undefined;
    const relink = (text: string) => (links ? text.replaceAll(links.from, links.to) : text);
    const copies = await Promise.all(
      recorded.map(async (output) => {
        if (output.kind === 'asset') {
          const bytes = await this.readBytes(output.key);
          if (bytes === undefined) throw new OutputMissingError(output.key);
          return { key: assetKey(toRelativePath, output.name), body: bytes, asset: true };
        }
        const body = await this.readKey(output.key);
        if (body === undefined) throw new OutputMissingError(output.key);
        const text = links ? relink(asText(body)) : body;
        // Chunks name their document's path (and their ids include it): the copy's chunks name the copy.
        if (output.kind === 'chunks') {
          const retargeted = retargetChunks(asText(text), toRelativePath, (chunk) => chunkId(chunk.source, chunk.charStart, chunk.charEnd, chunk.text));
          return { key: outputKey(toRelativePath, output.kind), body: retargeted, asset: false };
        }
        return { key: outputKey(toRelativePath, output.kind), body: text, asset: false };
      }),
    );
    const waiting = allWaiting(copies.length, onWait);
    const write = (copy: (typeof copies)[number]) => (after?: Promise<void>) => this.writeKey(copy.key, copy.body, 'output', waiting(), after);
    await writeAfterPictures(copies.filter((copy) => copy.asset).map(write), copies.filter((copy) => !copy.asset).map(write));
    return copies.map((copy) => copy.key);
  }

  async readState(relativePath: string): Promise<DocumentState | undefined> {
    const key = stateKey(relativePath);
    const body = await this.readKey(key);
    if (body === undefined || lostToPowerLoss(body)) return undefined;
    const state = parseStateRecord(asText(body), key);
    // Two unusual source paths can share a safe path; a state recorded for the other one is not ours.
    return state.relativePath === relativePath ? state : undefined;
  }

  async writeState(state: DocumentState): Promise<void> {
    const live = liveState(state);
    // The state first, then its index entry: the index only ever points at content whose state is recorded.
    const key = stateKey(live.relativePath);
    const body = prettyJson(live, key);
    await this.writeKey(key, body, 'record');
    await this.writeKey(this.indexKeyOf(live.sha256, live.optionsFingerprint), body, 'record');
  }

  /**
   * Outputs first, then the index entry and the state that point at them, then the manifest line: at every step of
   * the way the state names outputs that may be gone (which a later copy handles) but a `removed` line never stands
   * beside outputs still there. A crash part way leaves the job to be run again, and every delete is idempotent.
   *
   * Outputs kept: the line, then the state marked `removedAt` (the state key only: the index entry stays as it was,
   * leading to the outputs still there). A crash between the two records the removal again when the job is run again,
   * never not at all.
   */
  async removeDocument(relativePath: string, removal: { deleteOutputs: boolean; record: ManifestEntry }): Promise<string[]> {
    const state = await this.readState(relativePath).catch(() => undefined);
    let deleted: string[] = [];
    if (removal.deleteOutputs) {
      const outputs = new Set([...documentOutputKeys(relativePath), ...(state ? recordedOutputs(state).map((output) => output.key) : [])]);
      // Pictures a state does not list (it was lost, or a conversion stopped part way) go too.
      for await (const key of this.keysBelow(assetsFolder(relativePath))) outputs.add(key);
      await Promise.all([...outputs].map((key) => this.deleteKey(key)));
      deleted = [...outputs].filter((key) => state?.outputs.includes(key) ?? false);
      await this.forgetState(relativePath, state);
    }
    await this.appendManifest(removal.record);
    if (!removal.deleteOutputs && state !== undefined && state.source === removal.record.source && state.removedAt === undefined) {
      await this.markRemoved({ ...state, removedAt: removal.record.at });
    }
    return deleted;
  }

  /** A removal's records: the state of `relativePath` and, when it leads there, the content's index entry. */
  protected async forgetState(relativePath: string, state: DocumentState | undefined): Promise<void> {
    if (state) {
      // Under either layout (a store written before 2026-11-25 may hold the content's entry in the former one).
      for (const key of await this.#indexKeys(state.sha256, state.optionsFingerprint)) {
        const indexed = await this.#readIndexEntry(key).catch(() => undefined);
        if (indexed?.relativePath === relativePath) await this.deleteKey(key);
      }
    }
    await this.deleteKey(stateKey(relativePath));
  }

  /** The state again, marked `removedAt` (its path's record only: the index entry leads to the outputs kept). */
  protected async markRemoved(state: DocumentState): Promise<void> {
    const key = stateKey(state.relativePath);
    await this.writeKey(key, prettyJson(state, key), 'record');
  }

  async *documentStates(skip?: (stateKey: string) => boolean): AsyncGenerator<DocumentState> {
    for await (const key of this.keysBelow(STATE_DIR)) {
      if (!key.endsWith('.json') || skip?.(key)) continue;
      const body = await this.readKey(key);
      if (body === undefined || lostToPowerLoss(body)) continue; // removed since it was listed, or never flushed
      yield parseStateRecord(asText(body), key);
    }
  }

  async writeWorkFile(key: string, body: string | Uint8Array): Promise<void> {
    await this.writeKey(checkWorkKey(key), body, 'work');
  }

  async readWorkFile(key: string): Promise<Uint8Array | undefined> {
    return this.readBytes(checkWorkKey(key));
  }

  async deleteWorkFiles(keys: readonly string[]): Promise<void> {
    for (const key of keys) checkWorkKey(key);
    await Promise.all(keys.map((key) => this.deleteKey(key)));
  }

  async findByContent(sha256: string, optionsFingerprint: string): Promise<DocumentState | undefined> {
    for (const key of await this.#indexKeys(sha256, optionsFingerprint)) {
      const state = await this.#readIndexEntry(key);
      if (state !== undefined) return (await holdsContentStill(this, state)) ? state : undefined;
    }
    return undefined;
  }

  /** Where the content index keeps the state of `sha256` converted under `optionsFingerprint` (layout.ts). */
  protected indexKeyOf(sha256: string, optionsFingerprint: string): string {
    return indexKey(sha256, optionsFingerprint);
  }

  /** Where an earlier version of the store kept it, when this store may still hold entries there: read second. */
  protected async formerIndexKeyOf(_sha256: string, _optionsFingerprint: string): Promise<string | undefined> {
    return undefined;
  }

  async #indexKeys(sha256: string, optionsFingerprint: string): Promise<string[]> {
    const former = await this.formerIndexKeyOf(sha256, optionsFingerprint);
    const key = this.indexKeyOf(sha256, optionsFingerprint);
    return former === undefined || former === key ? [key] : [key, former];
  }

  async #readIndexEntry(key: string): Promise<DocumentState | undefined> {
    const body = await this.readKey(key);
    return body === undefined || lostToPowerLoss(body) ? undefined : parseStateRecord(asText(body), key);
  }
}

/** A state as written: a live one, a removal's mark never carried into it (nor into the index). */
export function liveState(state: DocumentState): DocumentState {
  const { removedAt: _removedAt, ...live } = state;
  return live;
}

/**
 * Whether the outputs an index entry names are still of its content: the entry stays when its path is converted
 * again from other content (or with other options), and its outputs then hold that conversion. Only the path's own
 * state says which content they are of.
 */
export async function holdsContentStill(store: Pick<OutputStore, 'readState'>, indexed: DocumentState): Promise<boolean> {
  const current = await store.readState(indexed.relativePath);
  return current?.sha256 === indexed.sha256 && current.optionsFingerprint === indexed.optionsFingerprint;
}

/**
 * Waits for every write, then throws the first failure: a caller told of a failed write must be able to rely on no
 * other write of the same document still being in flight (its temporary file is then gone too).
 */
async function settleAll(writes: Promise<void>[]): Promise<void> {
  const failure = (await Promise.allSettled(writes)).find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
}

type Write = (after?: Promise<void>) => Promise<void>;

/**
 * The `onWait` of each of a document's `count` writes (one call each: a write tried again calls its own again), and
 * `onWait` itself called once every one has: the document waits for the flush only when all its outputs do.
 */
function allWaiting(count: number, onWait: (() => void) | undefined): () => (() => void) | undefined {
  if (onWait === undefined) return () => undefined;
  let left = count;
  return () => {
    let called = false;
    return () => {
      if (called) return;
      called = true;
      if (--left === 0) onWait();
    };
  };
}

/**
 * A document's pictures and its other outputs written at once, the others taking their names only after every
 * picture has (the Markdown that links to the pictures never exists without them): both wait for the same flush
 * pass of a store's group commit, where one after the other waited for a pass each (100 ms apart, the window).
 */
async function writeAfterPictures(pictures: readonly Write[], others: readonly Write[]): Promise<void> {
  const picturesWritten = settleAll(pictures.map((write) => write()));
  // Its failure is reported once, below; the others' writes only wait for it.
  picturesWritten.catch(() => undefined);
  const after = pictures.length > 0 ? picturesWritten : undefined;
  await settleAll([picturesWritten, settleAll(others.map((write) => write(after)))]);
}

/**
 * A record renamed into place before its bytes reached the disk, read after a power loss: empty, or zeros where the
 * file system had allocated blocks but not written them. It stands for no record, as if the write had not been made;
 * anything else that does not parse is a damaged record, reported as such.
 */
function lostToPowerLoss(body: Uint8Array | string): boolean {
  if (typeof body === 'string') return /^\0*$/.test(body);
  return body.every((byte) => byte === 0);
}

function asText(body: Uint8Array | string): string {
  return typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}
