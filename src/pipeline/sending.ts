/**
 * What the jobs of one processor share about sending: whether the API refused the key or the backend can parse
 * nothing (no job of this process asks for a gate slot again), and the concurrency 429s in a row at a gate limit of 1
 * (after a few, the whole queue waits).
 */
import type { BackendBrokenError, ParseApiError } from '../backend/errors.js';

export class SendingState {
  /** The API's refusal of the key, once it came. */
  keyRefusal: ParseApiError | undefined;
  /** The backend's word that it can parse nothing (the local engine's threads cannot start), once it came. */
  backendBroken: BackendBrokenError | undefined;
  throttlesAtFloor = 0;
}

/** An attempt not sent because sending has stopped (the key was refused, the queue is paused). */
export class SendingStopped extends Error {}
