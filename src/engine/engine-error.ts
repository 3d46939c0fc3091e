/**
 * Errors a converter raises about the document itself. Each maps to an HTTP status and an API `code` in the
 * server's error body, with a message naming the cause (the server adds the file name).
 */
import type { DocumentErrorCode } from '../errors/codes.js';
import { DocmillError } from '../errors/docmill-error.js';

export type EngineErrorCode = DocumentErrorCode;

const STATUS: Record<EngineErrorCode, number> = {
  UNSUPPORTED_FILE: 400,
  ENCRYPTED_DOCUMENT: 400,
  CORRUPT_DOCUMENT: 400,
  EMPTY_DOCUMENT: 400,
  OCR_REQUIRED: 400,
  // Like FORMAT_NOT_AVAILABLE, a want of this installation rather than a fault of the file, and retrying cannot help.
  OCR_LANGUAGE_MISSING: 400,
  DOCUMENT_TOO_COMPLEX: 400,
  FORMAT_NOT_AVAILABLE: 400,
};

export class EngineError extends DocmillError {
  readonly status: number;

  constructor(
    readonly apiCode: EngineErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`ENGINE_${apiCode}`, message, options);
    this.status = STATUS[apiCode];
  }
}
