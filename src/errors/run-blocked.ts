/**
 * A failure no document is at fault for, after which this process can convert nothing until someone repairs what it
 * names: the local engine's threads cannot start, the output store takes no more writes (no space left, read-only).
 * A pipeline stops sending on it, leaving every document waiting, unfailed, rather than trying or failing each one
 * (and with a remote API, paying for parses whose outputs could not be kept).
 */
import { DocmillError } from './docmill-error.js';

export class RunBlockedError extends DocmillError {
  /** What the user does about it, said after the message. */
  readonly remedy: string;

  constructor(code: ConstructorParameters<typeof DocmillError>[0], message: string, remedy: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.remedy = remedy;
  }
}
