/**
 * Budget step, with a credit budget on the queue (`--max-credits`): reserves the document's estimated credits before
 * it is sent and counts what it really used after (the API's creditsUsed; the estimate when the answer has none).
 * When the estimate would pass the budget nothing is sent: the queue is paused (reason `budget`) for every worker and
 * the document goes back to waiting, unfailed. A send that ends without an answer releases the reservation (a failed
 * release is logged, counted and retried: ../budget-releases.ts), except while a long PDF waits for its page ranges:
 * the ranges spend it, the merge settles it.
 */
import { WaitingChildrenError } from '../../queue/commonjs-packages.js';
import type { ParseResult } from '../../backend/parse-backend.js';
import type { UploadSource } from '../../backend/upload-source.js';
import { costOfUpload } from '../document-cost.js';
import type { JobContext } from '../job-context.js';
import { park } from '../job-control.js';
import type { StepDeps } from '../processor-deps.js';

/** A reservation outlives a long PDF's page ranges; a dead worker's is taken over when its job is taken up again. */
export const RESERVATION_TTL_MS = 24 * 3_600_000;

export type BudgetDeps = Pick<StepDeps, 'control' | 'logger' | 'releases' | 'splitPages'>;

export async function withinBudget(ctx: JobContext, upload: UploadSource, deps: BudgetDeps, send: () => Promise<ParseResult>): Promise<ParseResult> {
  const { budget } = deps.control;
  if ((await deps.control.sendingConditions()).budgetLimit === undefined) return send();
  const { credits: estimate } = await costOfUpload(upload, ctx.options.sent, deps.splitPages);
  const file = ctx.data.relativePath;
  const reservation = await budget.reserve(ctx.owner, estimate, RESERVATION_TTL_MS);
  if (!reservation.ok) {
    const { used, reserved, limit } = reservation.state;
    await deps.control.pause(
      'budget',
      `credit budget reached: ${used} credits used${reserved ? ` and ${reserved} reserved` : ''} of ${limit}; ${file} (about ${estimate}) would pass it — raise it with \`docmill resume --max-credits N\``,
    );
    deps.logger.warn({ file, estimate, used, reserved, limit }, 'credit budget reached: queue paused, the remaining documents wait');
    return park(ctx);
  }
  let result: ParseResult;
  try {
    result = await send();
  } catch (error) {
    if (!(error instanceof WaitingChildrenError)) await deps.releases.release({ owner: ctx.owner, reservation, file });
    throw error;
  }
  await budget.settle(ctx.owner, result.data.metadata?.creditsUsed ?? estimate, reservation.token);
  return result;
}
