/**
 * `docmill status`, `docmill resume`, `docmill failed [--retry]`: look at and steer a queue.
 */
import type { Job } from 'bullmq';
import type { CliContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { type ConnectionFlags } from '../pipeline-flags.js';
import { openQueue } from '../../app/pipeline.js';
import { formatDuration } from '../progress.js';
import { environmentOf, queueOptions } from '../library-options.js';
import { parseJobDataSchema } from '../../queue/job-data.js';
import { maxCreditsOption } from './dry-run-action.js';

export interface StatusFlags extends ConnectionFlags {
  json?: boolean;
}


export async function statusCommand(flags: StatusFlags, context: CliContext): Promise<number> {
  const handle = await openQueue({ ...queueOptions(flags), out: flags.out }, 'lookup', context.logger, environmentOf(context));
  try {
    const { queue, control } = handle;
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed');
    const pause = await control.pauseReason();
    const stats = await control.stats();
    const recent = await control.recentRate(60);
    const workers = await queue.getWorkersCount();
    const budget = await control.budget.state();
    const left = (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0) + (counts.active ?? 0);
    // A paused queue finishes nothing until it is resumed: no ETA then.
    const etaSeconds = recent.perMinute > 0 && left > 0 && !pause ? Math.round((left / recent.perMinute) * 60) : undefined;
    const report = {
      queue: queue.name,
      redis: handle.target,
      paused: pause ? { kind: pause.kind, message: pause.message, since: pause.at } : false,
      workers,
      counts,
      documentsPerMinute: Number(recent.perMinute.toFixed(2)),
      rateOverSeconds: recent.overSeconds,
      ...(etaSeconds !== undefined ? { etaSeconds } : {}),
      totals: stats,
      budget: budget.limit === undefined ? null : { maxCredits: budget.limit, used: budget.used, reserved: budget.reserved },
    };
    if (flags.json) {
      context.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return EXIT.ok;
    }
    const lines = [
      `queue ${queue.name} on ${handle.target}`,
      pause ? `PAUSED (${pause.kind}) since ${pause.at}: ${pause.message}` : 'running',
      `workers: ${workers}`,
      `waiting ${(counts.waiting ?? 0) + (counts.prioritized ?? 0)} · active ${counts.active ?? 0} · delayed ${counts.delayed ?? 0} · failed ${counts.failed ?? 0} · completed (kept) ${counts.completed ?? 0}`,
      recent.finished > 0
        ? `throughput: ${report.documentsPerMinute} documents/min (${recent.finished} finished in the last ${recent.overSeconds} s)` +
          (etaSeconds !== undefined ? ` · ${left} left, ETA ${formatDuration(etaSeconds)}` : pause && left > 0 ? ` · ${left} left, no ETA while paused` : '')
        : 'throughput: nothing finished in the last minute',
      ...(budget.limit === undefined
        ? []
        : [`budget: ${budget.used} of ${budget.limit} credits used${budget.reserved ? ` (${budget.reserved} reserved by documents being sent)` : ''}`]),
      `totals: ${stats.converted ?? 0} converted · ${stats.skipped ?? 0} skipped · ${stats.failed ?? 0} failed · ${stats.pages ?? 0} pages · ${stats.credits ?? 0} credits`,
    ];
    context.stdout.write(`${lines.join('\n')}\n`);
    return EXIT.ok;
  } finally {
    await handle.close();
  }
}

export async function resumeCommand(flags: ConnectionFlags & { maxCredits?: string }, context: CliContext): Promise<number> {
  const { maxCredits } = maxCreditsOption(flags);
  const handle = await openQueue({ ...queueOptions(flags), out: flags.out }, 'lookup', context.logger, environmentOf(context));
  try {
    const pause = await handle.control.pauseReason();
    if (maxCredits !== undefined) {
      await handle.control.budget.setLimit(maxCredits);
      const { used } = await handle.control.budget.state();
      context.stdout.write(`credit budget of queue ${handle.queue.name}: ${maxCredits} (${used} used)\n`);
    }
    await handle.control.resume();
    context.stdout.write(pause ? `resumed queue ${handle.queue.name} (was paused: ${pause.message})\n` : `queue ${handle.queue.name} was not paused\n`);
    return EXIT.ok;
  } finally {
    await handle.close();
  }
}

export async function failedCommand(flags: StatusFlags & { retry?: boolean }, context: CliContext): Promise<number> {
  const handle = await openQueue({ ...queueOptions(flags), out: flags.out }, 'lookup', context.logger, environmentOf(context));
  try {
    const { queue } = handle;
    let listed = 0;
    for (let start = 0; ; start += 500) {
      const jobs: Job[] = await queue.getFailed(start, start + 499);
      if (jobs.length === 0) break;
      for (const job of jobs) {
        listed++;
        const data = parseJobDataSchema.safeParse(job.data);
        const path = data.success ? data.data.relativePath : job.id;
        if (flags.json) {
          context.stdout.write(`${JSON.stringify({ path, source: data.success ? data.data.uri : undefined, reason: job.failedReason, attempts: job.attemptsMade, at: job.finishedOn ? new Date(job.finishedOn).toISOString() : undefined })}\n`);
        } else {
          context.stdout.write(`${path}\t${job.failedReason}\n`);
        }
      }
      if (jobs.length < 500) break;
    }
    if (flags.retry && listed > 0) {
      await queue.retryJobs({ state: 'failed' });
      context.stderr.write(`docmill: ${listed} failed documents are back in queue ${queue.name}; a running worker (or the next run) converts them\n`);
    } else if (listed === 0) {
      context.stderr.write(`docmill: no failed documents in queue ${queue.name}\n`);
    }
    return EXIT.ok;
  } finally {
    await handle.close();
  }
}
