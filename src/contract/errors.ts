/**
 * The error catalogue (spec: "Errors"). The Retryable column is authoritative (retry rule 1); the client and the
 * server both read it from here.
 */

export type Retryable = 'yes' | 'no' | 'sometimes';

export interface CatalogueEntry {
  status: number;
  /** The typical `error` message. */
  message: string;
  /** The API's `code` field, where the contract gives one for parse. */
  apiCode?: string;
  condition: string;
  retryable: Retryable;
}

export const ERROR_CATALOGUE: readonly CatalogueEntry[] = [
  { status: 400, message: 'Bad Request', apiCode: 'BAD_REQUEST', condition: 'Request body fails schema validation; `details` names fields', retryable: 'no' },
  { status: 401, message: 'Unauthorized: Invalid token', condition: 'Key missing, malformed or revoked', retryable: 'no' },
  { status: 402, message: 'Payment Required: Insufficient credits', condition: 'Plan credits exhausted or billing not configured', retryable: 'no' },
  { status: 403, message: 'Forbidden', condition: 'Key lacks permission for endpoint or feature', retryable: 'no' },
  { status: 404, message: 'Not Found', condition: 'Job ID, resource or path does not exist', retryable: 'no' },
  { status: 408, message: 'Request Timeout', condition: 'Took longer than the request `timeout`', retryable: 'yes' },
  { status: 409, message: 'Conflict', condition: 'Resource state prevents the operation', retryable: 'no' },
  { status: 413, message: 'Payload Too Large', condition: 'Request body over the maximum size', retryable: 'no' },
  { status: 422, message: 'Unprocessable Entity', condition: 'Invalid JSON Schema, or no conforming result', retryable: 'sometimes' },
  { status: 429, message: 'Rate limit exceeded', condition: 'Per-minute request limit of the plan exceeded', retryable: 'yes' },
  { status: 429, message: 'Concurrency limit reached', condition: 'Concurrency limit of the plan reached', retryable: 'yes' },
  { status: 500, message: 'An unexpected error occurred on the server.', apiCode: 'UNKNOWN_ERROR', condition: 'Unhandled server failure', retryable: 'yes' },
  { status: 502, message: 'Bad Gateway', condition: 'Upstream proxy or worker returned an invalid response', retryable: 'yes' },
  { status: 503, message: 'Service Unavailable', condition: 'Temporarily unable to handle the request', retryable: 'yes' },
  { status: 504, message: 'Gateway Timeout', condition: 'Request exceeded the gateway timeout', retryable: 'yes' },
];

/**
 * Statuses retried (retry rule 2). 422 is "Sometimes" in the catalogue but is not among the statuses the
 * reference pattern retries, so it returns to the caller at once.
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/** Typical messages the server sends, one place so server bodies and tests agree with the catalogue. */
export const ERROR_MESSAGES = {
  invalidMultipart: 'Invalid multipart form-data request.',
  unauthorized: 'Unauthorized: Invalid token',
  forbidden: 'Forbidden',
  paymentRequired: 'Payment required to access this resource.',
  rateLimited: 'Request rate limit exceeded. Please wait and try again later.',
  concurrencyLimited: 'Concurrency limit reached',
  requestTimeout: 'Request Timeout',
  payloadTooLarge: 'Payload Too Large',
  unknown: 'An unexpected error occurred on the server.',
} as const;

/** The first catalogue entry for a status (statuses the catalogue does not list give undefined). */
export function catalogueEntryFor(status: number): CatalogueEntry | undefined {
  return ERROR_CATALOGUE.find((entry) => entry.status === status);
}
