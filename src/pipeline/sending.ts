/**
 * What the jobs of one processor share about sending: whether the API refused the key or nothing can be converted
 * until repaired (no job of this process asks for a gate slot again), and the concurrency 429s in a row at a gate
 * limit of 1 (after a few, the whole queue waits).
 */
import type { ParseApiError } from '../backend/errors.js';
import type { RunBlockedError } from '../errors/run-blocked.js';

export class SendingState {
  /** The API's refusal of the key, once it came. */
  keyRefusal: ParseApiError | undefined;
  /** What blocks this process from converting anything (RunBlockedError), once it came. */
  blocked: RunBlockedError | undefined;
  throttlesAtFloor = 0;
}

/** An attempt not sent because sending has stopped (the key was refused, the queue is paused). */
export class SendingStopped extends Error {}
