/**
 * The work of one document's job, as named steps over its JobContext:
 *
 *   load options → cancelled if the source was removed since → skip if unchanged (nothing read) → read the source (a
 *   source gone cancels) → skip if the same content was converted → (content lock) → within the credit budget: parse,
 *   whole or in page ranges → write outputs and chunks → remove the ranges' work files → undone if the source was
 *   removed meanwhile (the lock let go of in the same round trip when not) → the finished document, for the record step.
 *
 * Identical content queued under two paths is parsed once: the second job waits for the first's content lock, then
 * finds its outputs and copies them.
 */
import type { JobContext } from './job-context.js';
import type { StepDeps } from './processor-deps.js';
import { withinBudget } from './steps/budget.js';
import { loadOptions } from './steps/load-options.js';
import { parseWholeOrInRanges } from './steps/parse-whole-or-in-ranges.js';
import { cleanUpRanges } from './steps/range-children.js';
import { readSource } from './steps/read-source.js';
import { cancelIfMissing, cancelIfRemoved, undoIfRemoved, type Cancelled } from './steps/removal-check.js';
import type { Finished } from './steps/record.js';
import { reuseByContent } from './steps/reuse-content.js';
import { skipIfUnchanged } from './steps/skip-unchanged.js';
import { writeOutputs } from './steps/write-outputs.js';

/** The content lock's default time to live (renewed while held). */
const CONTENT_LOCK_MS = 30_000;

export async function convertDocument(ctx: JobContext, deps: StepDeps): Promise<Finished | Cancelled> {
  ctx.useOptions(await loadOptions(ctx, deps.control));
  const removed = await cancelIfRemoved(ctx, deps);
  if (removed) return removed;
  const unchanged = await skipIfUnchanged(ctx, deps.store);
  if (unchanged) return unchanged;
  let local;
  try {
    local = await readSource(ctx, deps);
  } catch (error) {
    const gone = cancelIfMissing(error);
    if (gone) return gone;
    throw error;
  }
  try {
    const twin = await reuseByContent(ctx, local.sha256, deps.store);
    if (twin) return twin;
    const lock = await deps.control.lockContent(
      `${local.sha256}:${ctx.data.optionsFingerprint}`,
      ctx.owner,
      deps.contentLockMs ?? CONTENT_LOCK_MS,
      ctx.signal,
    );
    try {
      // Another job with the same content may have finished while this one waited for the lock.
      const converted = await reuseByContent(ctx, local.sha256, deps.store);
      if (converted) return converted;
      const result = await withinBudget(ctx, local.upload, deps, () => parseWholeOrInRanges(ctx, local, deps));
      const state = await writeOutputs(ctx, local.sha256, result, deps);
      await cleanUpRanges(ctx, deps);
      // Last under the lock: unless the file was removed meanwhile, the same round trip lets go of it.
      const undone = await undoIfRemoved(ctx, deps, lock);
      if (undone) return undone;
      return { status: 'converted', state, requests: ctx.requests };
    } finally {
      await lock.release();
    }
  } finally {
    await local.dispose();
  }
}
