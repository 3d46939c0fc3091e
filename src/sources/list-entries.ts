/** Builders for ListEntry values, so every source reports files and skips in the same shape. */
import type { ListEntry, RemovedEntry, SkipReason, SourceFile } from './source.js';

export function fileEntry(file: SourceFile): ListEntry {
  return { kind: 'file', file };
}

/** A skipped entry; `detail` (an error code, a link target...) is left out when there is none. */
export function skippedEntry(relativePath: string, reason: SkipReason, detail?: string): ListEntry {
  return detail === undefined ? { kind: 'skipped', relativePath, reason } : { kind: 'skipped', relativePath, reason, detail };
}

/** A source file that is gone, by its URI and its path below the source root. */
export function removedEntry(uri: string, relativePath: string): RemovedEntry {
  return { kind: 'removed', uri, relativePath };
}
