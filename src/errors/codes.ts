/**
 * Every error code docmill emits, in one place: `DocmillError.code` is typed by this union, so a new code cannot be
 * raised without being listed here, and a test checks the list in docs/troubleshooting.md against it. Codes are stable across releases.
 */

/**
 * Codes the local engine and `docmill serve` answer in an error body's `code` for a document they cannot convert:
 * HTTP 400 for what the file is, 422 for what the engine could not do with it (its converter failed on it, or it
 * overran its time twice, the second time alone). Neither is retried.
 */
export const DOCUMENT_ERROR_CODES = [
  'UNSUPPORTED_FILE',
  'ENCRYPTED_DOCUMENT',
  'CORRUPT_DOCUMENT',
  'EMPTY_DOCUMENT',
  'OCR_REQUIRED',
  'OCR_LANGUAGE_MISSING',
  'DOCUMENT_TOO_COMPLEX',
  'FORMAT_NOT_AVAILABLE',
  'CONVERSION_FAILED',
  'PARSE_TIMEOUT',
] as const;
export type DocumentErrorCode = (typeof DOCUMENT_ERROR_CODES)[number];

export const ERROR_CODES = [
  // The parse API answered with an error (src/backend/errors.ts).
  'PARSE_BAD_REQUEST',
  'PARSE_UNAUTHORIZED',
  'PARSE_CREDITS_EXHAUSTED',
  'PARSE_FORBIDDEN',
  'PARSE_NOT_FOUND',
  'PARSE_TIMEOUT',
  'PARSE_PAYLOAD_TOO_LARGE',
  'PARSE_UNPROCESSABLE',
  'PARSE_RATE_LIMITED',
  'PARSE_SERVER_ERROR',
  'PARSE_HTTP_ERROR',
  // No usable answer, or nothing sent.
  'PARSE_NETWORK_ERROR',
  'PARSE_DEADLINE_EXCEEDED',
  'PARSE_INVALID_RESPONSE',
  'PARSE_ABORTED',
  'PARSE_INVALID_OPTIONS',
  'FILE_TOO_LARGE',
  'FILE_UNSUPPORTED',
  'FILE_UNREADABLE',
  'FILE_SOURCE_INVALID',
  'CONFIG_INVALID_API_URL',
  'INVALID_SETTING',
  'USAGE',
  // The local engine: a document it cannot convert (ENGINE_ + a document code), or the engine itself.
  ...DOCUMENT_ERROR_CODES.map((code) => `ENGINE_${code}` as const),
  'ENGINE_TIMEOUT',
  'ENGINE_CRASH',
  'ENGINE_START_FAILED',
  'PDFJS_PATCH_FAILED',
  'PDFJS_CANNOT_DRAW',
  // The pipeline.
  'REDIS_UNAVAILABLE',
  'REDIS_NOT_CONFIGURED',
  'QUEUE_UNKNOWN_OPTIONS',
  'PDF_SPLIT_FAILED',
  'PDF_RANGE_FAILED',
  'IMAGES_OVER_LIMIT',
  'SOURCE_NOT_FOUND',
  'SOURCE_UNREADABLE',
  'SOURCE_LIST_FAILED',
  'SOURCE_CHECKPOINT_INVALID',
  'S3_INVALID_URL',
  'S3_LISTING_UNORDERED',
  'STORE_UNSAFE_PATH',
  'STORE_PATH_ESCAPE',
  'STORE_READ_FAILED',
  'STORE_WRITE_FAILED',
  'STORE_FULL',
  'STORE_INVALID_RECORD',
  'STORE_OUTPUT_MISSING',
  'STORE_INVALID_LOCATION',
  'STORE_CLOSED',
] as const;

export type DocmillErrorCode =
  | Exclude<(typeof ERROR_CODES)[number], `ENGINE_${DocumentErrorCode}`>
  | `ENGINE_${DocumentErrorCode}`;
