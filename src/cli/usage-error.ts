import { DocmillError } from '../app/errors.js';

/** A mistake in how docmill was called (a flag, a missing file, an unreadable --options file). Exit code 2. */
export class UsageError extends DocmillError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('USAGE', message, options);
  }
}
