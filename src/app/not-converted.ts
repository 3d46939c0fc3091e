/**
 * Files a listing reports but docmill will not convert, recorded in the manifest so nothing is passed over
 * silently: someone converting an archive learns that 312 `.msg` files were not touched, and a folder docmill may
 * not read is a failure (SOURCE_UNREADABLE) that makes the run exit 1. Skips a user chose (excluded by a glob) are
 * counted, not recorded; docmill's own temporary files are neither.
 */
import { extensionOf } from '../contract/extensions.js';
import type { DocumentOutcome } from '../pipeline/outcome.js';
import type { ListEntry, SkipReason } from '../sources/source.js';
import type { ManifestEntry, OutputStore } from '../store/output-store.js';
import type { PipelineEvents } from './events.js';
import type { SummaryCounter } from './summary.js';

const SKIP_REASON: Partial<Record<SkipReason, string>> = {
  unsupported: 'unsupported extension',
  'symlink-outside-root': 'symbolic link outside the source',
  'symlink-loop': 'symbolic link loop',
  'symlink-dangling': 'dangling symbolic link',
  'docmill-output': 'folder of docmill outputs',
};

export type SkippedEntry = Extract<ListEntry, { kind: 'skipped' }>;

/** The manifest line for a listing skip, or undefined for skips that are not worth one. */
export function notConvertedRecord(entry: SkippedEntry, sourceLocation: string): ManifestEntry | undefined {
  const base = { path: entry.relativePath, source: sourceLocation, size: 0, outputs: [], attempts: 0, durationMs: 0, at: new Date().toISOString() };
  // Deleted between the listing of its folder and a look at it: nothing to convert, nothing failed.
  if (entry.reason === 'unreadable' && entry.detail === 'ENOENT') return { ...base, status: 'skipped', reason: 'deleted during the listing' };
  if (entry.reason === 'unreadable') {
    return {
      ...base,
      status: 'failed',
      error: { code: 'SOURCE_UNREADABLE', message: `${entry.relativePath || '.'}: cannot be read (${entry.detail ?? 'permission denied'})` },
    };
  }
  if (entry.reason === 'unsupported' && entry.detail) return { ...base, status: 'skipped', reason: entry.detail };
  const reason = SKIP_REASON[entry.reason];
  if (!reason) return undefined;
  return {
    ...base,
    status: 'skipped',
    reason,
    ...(entry.reason === 'unsupported' ? { extension: extensionOf(entry.relativePath) || '(none)' } : {}),
    ...(entry.detail ? { error: { code: entry.reason.toUpperCase().replace(/-/g, '_'), message: entry.detail } } : {}),
  };
}

/** Records a listed file docmill will not convert (in the manifest, when there is a store), counts it, and tells the caller. */
export async function recordNotConverted(
  entry: SkippedEntry,
  sourceLocation: string,
  store: OutputStore | undefined,
  counter: SummaryCounter,
  events: PipelineEvents,
): Promise<void> {
  if (entry.reason === 'excluded') counter.excluded();
  const record = notConvertedRecord(entry, sourceLocation);
  if (!record) return;
  await store?.appendManifest(record);
  if (record.status === 'failed') {
    const outcome: DocumentOutcome = { status: 'failed', relativePath: record.path, requests: 0, durationMs: 0, error: record.error, record };
    counter.record(outcome);
    events.publish({ type: 'document', outcome });
    return;
  }
  const reason = record.reason ?? entry.reason;
  counter.notConverted(record.path, reason, record.extension);
  events.publish({ type: 'not-converted', path: record.path, reason, extension: record.extension, record });
}
