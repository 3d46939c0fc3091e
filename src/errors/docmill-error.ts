/**
 * The root of docmill's error hierarchy. Every error a user can meet has a stable `code` to match on
 * (`err.code === 'PARSE_RATE_LIMITED'`), kept across releases; messages may be reworded, codes may not.
 */
import type { DocmillErrorCode } from './codes.js';

export class DocmillError extends Error {
  readonly code: DocmillErrorCode;

  constructor(code: DocmillErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}
