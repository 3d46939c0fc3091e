/**
 * Numeric limits of the /v2/parse contract (spec: "Limits").
 * The spec says "50 MB per request"; we read MB as MiB (52,428,800 bytes), the larger reading, so docmill never
 * refuses a file the API would accept. A file between 50,000,000 and 52,428,800 bytes is sent; should the API
 * count in decimal megabytes it answers 413, which fails that document without a retry.
 */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const MAX_TIMEOUT_MS = 300_000;
export const MIN_MAX_PAGES = 1;
export const MAX_MAX_PAGES = 10_000;
export const MAX_AUDIT_USERNAME_LENGTH = 1024;
/** Retry rule 4: at most this many attempts in all, first one included. */
export const MAX_ATTEMPTS = 5;
/** Retry rule 4: the exponential backoff never waits longer than this (before jitter). */
export const MAX_BACKOFF_MS = 30_000;
/** Retry rule 4: jitter added to each backoff is below this. */
export const MAX_JITTER_MS = 1_000;
