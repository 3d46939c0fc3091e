/**
 * What a run did, counted as it goes: conversions, skips, failures grouped by cause (with the extensions of the
 * files behind each cause), and the files it did not try at all, so a summary can say "23 failed: 14 format not
 * converted (.odt 3, .rtf 3), 6 password-protected" instead of a bare count.
 */
import { extensionOf } from '../contract/extensions.js';
import type { ParseApiError } from '../backend/errors.js';
import { RunBlockedError } from '../errors/run-blocked.js';
import type { DocumentOutcome } from '../pipeline/outcome.js';

export interface RunCounts {
  /** Files put into the queue by this run's listing. */
  queued: number;
  converted: number;
  skipped: number;
  failed: number;
  /** Source files found removed (their outputs deleted or kept, as `removed` says). */
  removed: number;
  /** Listed files that were not queued because docmill cannot take them (see `notConverted`). */
  notConverted: number;
  /**
   * Files left out by the user's --include/--exclude (a folder excluded whole counts once): in no manifest, but
   * counted, so a glob that matches nothing is seen at once.
   */
  excluded: number;
  pages: number;
  credits: number;
  /** Parse requests made (each retry counts). */
  requests: number;
}

/** A group of files that share a cause, with how many of each extension. */
export interface CauseGroup {
  cause: string;
  count: number;
  /** `.odt` → 3; files without an extension count under `(none)`. */
  extensions: Record<string, number>;
}

/** The documents this run converted whose parse warned: how many, and the first few with their warning. */
export interface WarningSummary {
  count: number;
  /** Up to WARNING_EXAMPLES of them, in the order they finished; every one has its warning in its manifest line. */
  examples: { path: string; warning: string }[];
}

/** Documents named with their warning in a summary: enough to see what kind of warning, the manifest holds them all. */
export const WARNING_EXAMPLES = 3;

export interface RunSummary {
  /**
   * completed: the queue drained; stopped-auth: the API refused the key; stopped-blocked: nothing can be converted
   * until repaired (RunBlockedError: the local engine's threads cannot start, the output takes no more writes);
   * nothing was marked failed on either stop; interrupted:
   * closed or aborted; redis-unavailable: Redis stayed unreachable for longer than `redisWaitMs` (the queue is kept);
   * stopped-budget: the next document would have passed `maxCredits` (the rest waits in the queue, unfailed).
   */
  outcome: 'completed' | 'stopped-auth' | 'stopped-blocked' | 'interrupted' | 'redis-unavailable' | 'stopped-budget';
  counts: RunCounts;
  /** Failed documents by cause, most frequent first. */
  failures: CauseGroup[];
  /** Files listed but not converted (unsupported extension, dangling link...), by reason. */
  notConverted: CauseGroup[];
  /** Skipped documents by reason (unchanged, same content as another file). */
  skippedBy: Record<string, number>;
  /** Converted documents whose outputs may not hold all of the document (a file cut short, a part lost…). */
  warnings: WarningSummary;
  /** Documents the queue holds as failed after the run (may include earlier runs' failures). */
  failedInQueue: number;
  queue: string;
  out: string;
  /** On `stopped-budget`: the budget, the credits used against it, and the documents left waiting. */
  budget?: { maxCredits: number; used: number; waiting: number } | undefined;
  /** The API's refusal, on `stopped-auth`; the RunBlockedError, on `stopped-blocked`; the RedisUnavailableError (code REDIS_UNAVAILABLE), on `redis-unavailable`. */
  error?: Error | undefined;
}

/** How a run or a worker that stopped sending ended: blocked until repaired (RunBlockedError), or refused the key. */
export function stoppedOutcome(error: ParseApiError | RunBlockedError | undefined): 'stopped-auth' | 'stopped-blocked' {
  return error instanceof RunBlockedError ? 'stopped-blocked' : 'stopped-auth';
}

/** The cause a user can act on, from an error code the API or the engine gave. */
export function causeOf(code: string): string {
  switch (code) {
    case 'UNSUPPORTED_FILE':
    case 'PARSE_UNSUPPORTED_FILE':
      return 'format not converted';
    case 'ENCRYPTED_DOCUMENT':
      return 'password-protected';
    case 'CORRUPT_DOCUMENT':
    case 'EMPTY_DOCUMENT':
      return 'corrupt or empty';
    case 'CONVERSION_FAILED':
      return 'could not be converted';
    case 'OCR_REQUIRED':
      return 'needs OCR';
    case 'OCR_LANGUAGE_MISSING':
      return 'OCR language not installed';
    case 'DOCUMENT_TOO_COMPLEX':
    case 'PARSE_PAYLOAD_TOO_LARGE':
    case 'FILE_TOO_LARGE':
      return 'too large or complex';
    case 'FORMAT_NOT_AVAILABLE':
      return 'option not available';
    case 'PARSE_TIMEOUT':
    case 'ENGINE_TIMEOUT':
      return 'timed out';
    case 'SOURCE_UNREADABLE':
    case 'FILE_READ_FAILED':
      return 'unreadable';
    default:
      return code;
  }
}

export class SummaryCounter {
  readonly counts: RunCounts = { queued: 0, converted: 0, skipped: 0, failed: 0, removed: 0, notConverted: 0, excluded: 0, pages: 0, credits: 0, requests: 0 };
  readonly #failures = new Map<string, CauseGroup>();
  readonly #notConverted = new Map<string, CauseGroup>();
  readonly skippedBy: Record<string, number> = {};

  /**
   * The last status of each path this run: a document whose job ran twice (a stalled job taken over, say) counts
   * once, as what it ended as. About 100 bytes a path.
   */
  readonly #statusOf = new Map<string, DocumentOutcome['status']>();
  /** The paths converted with a warning (the texts are in the manifest; only the examples' are kept). */
  readonly #warned = new Set<string>();
  readonly #warningExamples: WarningSummary['examples'] = [];

  record(outcome: DocumentOutcome): void {
    const previous = this.#statusOf.get(outcome.relativePath);
    if (previous !== undefined) this.counts[previous]--;
    this.#statusOf.set(outcome.relativePath, outcome.status);
    this.counts[outcome.status]++;
    this.counts.pages += outcome.numPages ?? 0;
    this.counts.credits += outcome.creditsUsed ?? 0;
    if (outcome.status === 'failed') addTo(this.#failures, causeOf(outcome.error?.code ?? 'UNKNOWN'), outcome.relativePath);
    if (outcome.status === 'skipped' && outcome.reason) this.skippedBy[outcome.reason] = (this.skippedBy[outcome.reason] ?? 0) + 1;
    const path = outcome.relativePath;
    if (outcome.status === 'converted' && outcome.warning) {
      this.#warned.add(path);
      if (this.#warningExamples.length < WARNING_EXAMPLES && !this.#warningExamples.some((example) => example.path === path)) {
        this.#warningExamples.push({ path, warning: outcome.warning });
      }
    } else if (this.#warned.delete(path)) {
      const at = this.#warningExamples.findIndex((example) => example.path === path);
      if (at >= 0) this.#warningExamples.splice(at, 1);
    }
  }

  warnings(): WarningSummary {
    return { count: this.#warned.size, examples: this.#warningExamples.map((example) => ({ ...example })) };
  }

  /** A parse request went out (counted as made, so the count equals what the API received). */
  request(): void {
    this.counts.requests++;
  }

  /** `extension`: the one to group it under (an unsupported file's); none for a link or a folder. */
  notConverted(path: string, reason: string, extension?: string): void {
    this.counts.notConverted++;
    addTo(this.#notConverted, reason, path, extension === undefined ? null : extension);
  }

  excluded(): void {
    this.counts.excluded++;
  }

  get done(): number {
    return this.counts.converted + this.counts.skipped + this.counts.failed;
  }

  failures(): CauseGroup[] {
    return sorted(this.#failures);
  }

  notConvertedGroups(): CauseGroup[] {
    return sorted(this.#notConverted);
  }
}

/** `extension`: null to count the path under no extension; by default, the path's own. */
function addTo(groups: Map<string, CauseGroup>, cause: string, path: string, extension: string | null = extensionOf(path) || '(none)'): void {
  const group = groups.get(cause) ?? { cause, count: 0, extensions: {} };
  group.count++;
  if (extension !== null) group.extensions[extension] = (group.extensions[extension] ?? 0) + 1;
  groups.set(cause, group);
}

function sorted(groups: Map<string, CauseGroup>): CauseGroup[] {
  return [...groups.values()].sort((a, b) => b.count - a.count || a.cause.localeCompare(b.cause));
}

/** "14 format not converted (.odt 3, .rtf 3), 6 password-protected": the groups as one phrase. */
export function describeGroups(groups: CauseGroup[]): string {
  return groups
    .map((group) => {
      const extensions = Object.entries(group.extensions).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      const detail = extensions.length > 0 ? ` (${extensions.map(([extension, count]) => `${extension} ${count}`).join(', ')})` : '';
      return `${group.count} ${group.cause}${detail}`;
    })
    .join(', ');
}
