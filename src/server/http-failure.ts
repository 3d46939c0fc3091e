/**
 * A refusal `docmill serve` answers as it is: its status, the contract's error body, and any headers. Anything
 * else a handler throws is unexpected and answered 500 without its detail.
 */
import { ERROR_MESSAGES } from '../contract/errors.js';
import { badRequestBody, type ValidationDetail } from '../contract/validation.js';

export class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
    options?: { cause?: unknown },
  ) {
    super(String(body.error), options);
  }
}

export function badRequest(message: string, details: ValidationDetail[] = []): HttpFailure {
  return new HttpFailure(400, details.length > 0 ? { ...badRequestBody(details), error: message } : { success: false, code: 'BAD_REQUEST', error: message });
}

/** The contract's answer to a multipart body that is not valid: malformed, cut short, or over a part limit. */
export function invalidMultipart(reason?: string, details: ValidationDetail[] = []): HttpFailure {
  return badRequest(reason ? `${ERROR_MESSAGES.invalidMultipart} ${reason}` : ERROR_MESSAGES.invalidMultipart, details);
}

export function payloadTooLarge(what: string, limitBytes: number): HttpFailure {
  return new HttpFailure(413, {
    success: false,
    code: 'PAYLOAD_TOO_LARGE',
    error: `${ERROR_MESSAGES.payloadTooLarge}: ${what} is over the ${limitBytes / (1024 * 1024)} MiB limit`,
  });
}
