/**
 * What a job does with a RunBlockedError (the local engine cannot start, the output takes no more writes, the API's
 * URL names no parse API): this process stops sending, its caller is told (a run or a worker then stops), and the
 * job goes back to waiting, unfailed, without spending an attempt. The queue is not paused: other hosts' workers may
 * be sound.
 */
import { NotFoundError } from '../../backend/errors.js';
import { RunBlockedError } from '../../errors/run-blocked.js';
import type { JobContext } from '../job-context.js';
import { park } from '../job-control.js';
import type { StepDeps } from '../processor-deps.js';

export type BlockedDeps = Pick<StepDeps, 'logger' | 'sending' | 'onSendingStopped'>;

/** The longest part of a 404's body quoted (a web server's page of HTML, say). */
const QUOTED_CHARS = 120;

/**
 * `error` as one that blocks the run, or undefined. A 404 to the parse request is one: the contract has nothing a
 * document could be missing there, so the URL names no parse API (a base with a path too many, another server), and
 * every document would fail the same way.
 */
export function blockingError(error: unknown): RunBlockedError | undefined {
  if (error instanceof RunBlockedError) return error;
  if (!(error instanceof NotFoundError)) return undefined;
  const body = error.apiMessage.length > QUOTED_CHARS ? `${error.apiMessage.slice(0, QUOTED_CHARS)}…` : error.apiMessage;
  return new RunBlockedError(
    'PARSE_NOT_FOUND',
    `the parse API's URL answered HTTP 404 to POST /v2/parse (${body}): it names no parse API`,
    'check --api-url (or DOCMILL_API_URL): it should be the API base, e.g. https://api.example.com',
    { cause: error },
  );
}

/** Parks the job (throws, as `park` does) when `failure` blocks the run; returns for any other error. */
export async function stopIfBlocked(ctx: JobContext, failure: unknown, deps: BlockedDeps): Promise<void> {
  const error = blockingError(failure);
  if (!error) return;
  if (deps.sending.blocked === undefined) deps.logger.error({ code: error.code, reason: error.message }, 'nothing can be converted until this is repaired: sending stopped, no job failed');
  deps.sending.blocked ??= error;
  deps.onSendingStopped?.(error);
  await park(ctx);
}
