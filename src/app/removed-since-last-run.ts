/**
 * `run`'s removals: files converted into this output by an earlier run of the same source that its listing no
 * longer reports. The state keys of the listing's paths are kept in a set (about 100 bytes a path, as the run's
 * counter keeps them), then the store's state keys are listed against it: only a state the listing missed is read
 * (one GET each on S3, for the few files gone, not one per document), and it is a removal only when the source
 * confirms the file is gone (not merely left out by a new `--exclude`, nor another source's file). A state already
 * marked removed (its outputs kept by an earlier removal) is a removal recorded: it is not reported again.
 */
import type { ListEntry, RemovedEntry, Source } from '../sources/source.js';
import { stateKey } from '../store/layout.js';
import type { OutputStore } from '../store/output-store.js';

export class ListedPaths {
  readonly #stateKeys = new Set<string>();

  /** Passes a listing through, noting every path it reports (files and skips alike). */
  async *record(entries: AsyncIterable<ListEntry>): AsyncGenerator<ListEntry> {
    for await (const entry of entries) {
      const key = stateKeyOrUndefined(entry.kind === 'file' ? entry.file.relativePath : entry.relativePath);
      if (key !== undefined) this.#stateKeys.add(key);
      yield entry;
    }
  }

  hasStateKey(key: string): boolean {
    return this.#stateKeys.has(key);
  }
}

function stateKeyOrUndefined(relativePath: string): string | undefined {
  try {
    return stateKey(relativePath);
  } catch {
    return undefined; // a path the store cannot hold has no state either
  }
}

/** The files of earlier runs of `source` into `store` that are gone. Sources that cannot tell (a single file) report none. */
export async function removedSinceLastRun(store: OutputStore, source: Source, listed: ListedPaths, signal: AbortSignal): Promise<RemovedEntry[]> {
  if (!source.presence) return [];
  const removed: RemovedEntry[] = [];
  for await (const state of store.documentStates((key) => listed.hasStateKey(key))) {
    if (signal.aborted) break;
    if (state.removedAt !== undefined) continue;
    if ((await source.presence(state.source)) === 'gone') removed.push({ kind: 'removed', uri: state.source, relativePath: state.relativePath });
  }
  return removed;
}
