/**
 * Reading back what the stores wrote: state and index records (one JSON document each) and manifest lines.
 * Records are checked against their shape, so a hand-edited or foreign file is reported with its key instead of
 * flowing on as a half-valid object.
 */
import { z } from 'zod';
import type { DocumentState, ManifestEntry } from './output-store.js';
import { InvalidRecordError } from './store-errors.js';

const optionalCount = z.number().optional();

const documentStateSchema = z.object({
  relativePath: z.string(),
  source: z.string(),
  changeToken: z.string(),
  sha256: z.string(),
  optionsFingerprint: z.string(),
  outputs: z.array(z.string()),
  numPages: optionalCount,
  totalPages: optionalCount,
  creditsUsed: optionalCount,
  convertedAt: z.string(),
  origin: z.enum(['parsed', 'copied']).optional(),
  requests: z.number().optional(),
  removedAt: z.string().optional(),
  warning: z.string().optional(),
}) satisfies z.ZodType<DocumentState>;

const manifestEntrySchema = z.object({
  path: z.string(),
  source: z.string(),
  sha256: z.string().optional(),
  size: z.number(),
  status: z.enum(['converted', 'skipped', 'failed', 'removed']),
  outputs: z.array(z.string()),
  numPages: optionalCount,
  totalPages: optionalCount,
  creditsUsed: optionalCount,
  attempts: z.number(),
  durationMs: z.number(),
  totalDurationMs: optionalCount,
  lastAttemptMs: optionalCount,
  error: z.object({ status: z.number().optional(), code: z.string(), message: z.string() }).optional(),
  reason: z.string().optional(),
  extension: z.string().optional(),
  warning: z.string().optional(),
  at: z.string(),
}) satisfies z.ZodType<ManifestEntry>;

/** A state record read from `key`; InvalidRecordError when it is not one. */
export function parseStateRecord(text: string, key: string): DocumentState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidRecordError(key, 'not JSON');
  }
  return stateRecordFrom(value, key);
}

/** A state record from a parsed JSON value read from `key`; InvalidRecordError when it is not one. */
export function stateRecordFrom(value: unknown, key: string): DocumentState {
  const result = documentStateSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new InvalidRecordError(key, `${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  return result.data;
}

/**
 * One manifest line, serialised. JSON.stringify escapes every newline inside strings, so a line is one line;
 * the trailing newline is part of it, so a whole line goes out in one write.
 */
export function manifestLine(entry: ManifestEntry): string {
  return `${JSON.stringify(entry)}\n`;
}

/**
 * The entry on one manifest line, or undefined for a line that is not one. A writer that died mid-line leaves a
 * torn line (usually the last, though later writers may append after it); readers skip it rather than fail.
 */
export function parseManifestLine(line: string): ManifestEntry | undefined {
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const result = manifestEntrySchema.safeParse(value);
  return result.success ? result.data : undefined;
}

/**
 * How far apart the clocks of the hosts writing one manifest may be: their lines are appended in the order they are
 * written, each stamped by its own host's clock, so a look back stops only at a line this much older than it seeks.
 */
export const MANIFEST_CLOCK_SKEW_MS = 10 * 60_000;

/**
 * Judges one manifest entry of a look back over the manifest, newest lines first, for the entry of `relativePath`
 * recorded at `sinceMs` or later: `match` it is; `before` the look back has passed the time and may stop; `other`.
 * Pure.
 */
export function lookBack(entry: ManifestEntry, relativePath: string, sinceMs: number): 'match' | 'before' | 'other' {
  const at = Date.parse(entry.at);
  if (entry.path === relativePath && at >= sinceMs) return 'match';
  return at < sinceMs - MANIFEST_CLOCK_SKEW_MS ? 'before' : 'other';
}

/** The entries among `lines`, skipping blank and torn lines. */
export async function* manifestEntries(lines: AsyncIterable<string> | Iterable<string>): AsyncGenerator<ManifestEntry> {
  for await (const line of lines) {
    const entry = parseManifestLine(line);
    if (entry !== undefined) yield entry;
  }
}
