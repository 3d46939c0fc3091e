/**
 * What a job does with a RunBlockedError (the local engine cannot start, the output takes no more writes): this
 * process stops sending, its caller is told (a run or a worker then stops), and the job goes back to waiting,
 * unfailed, without spending an attempt. The queue is not paused: other hosts' workers may be sound.
 */
import { RunBlockedError } from '../../errors/run-blocked.js';
import type { JobContext } from '../job-context.js';
import { park } from '../job-control.js';
import type { StepDeps } from '../processor-deps.js';

export type BlockedDeps = Pick<StepDeps, 'logger' | 'sending' | 'onSendingStopped'>;

/** Parks the job (throws, as `park` does) when `error` blocks the run; returns for any other error. */
export async function stopIfBlocked(ctx: JobContext, error: unknown, deps: BlockedDeps): Promise<void> {
  if (!(error instanceof RunBlockedError)) return;
  if (deps.sending.blocked === undefined) deps.logger.error({ code: error.code, reason: error.message }, 'nothing can be converted until this is repaired: sending stopped, no job failed');
  deps.sending.blocked ??= error;
  deps.onSendingStopped?.(error);
  await park(ctx);
}
