/**
 * Releasing a credit reservation that no answer settled (an error, a deferral, a pause), never swallowed. A release
 * that fails — Redis unreachable or failing at that moment — is logged, counted in
 * `docmill_budget_release_failures_total`, and tried again with a growing wait until it succeeds or the reservation
 * has expired by itself; the job goes on meanwhile, with the error it had. Until then the reservation counts against
 * the budget: the budget may stop short, never overspend. A late retry cannot drop what it should not: it names the
 * reservation's token, and a job that comes back re-enters its own reservation under a new one (CreditBudget). A
 * process that dies, or closes its connection, with a release pending leaves the reservation to its time to live, or
 * to its job: a deferred or parked document re-enters it when it runs again, and `docmill run` puts failed documents
 * back in the queue.
 */
import type { Logger } from 'pino';
import type { DocmillMetrics } from '../metrics/metrics.js';
import type { CreditBudget, HeldReservation } from '../queue/credit-budget.js';

export interface BudgetReleasesOptions {
  logger: Logger;
  metrics?: DocmillMetrics | undefined;
  /** The wait before retry `n` (1-based) of a release that failed. @default 1 s, doubling, at most 30 s */
  retryDelayMs?: (retry: number) => number;
}

/** What a release is for: the reservation, whose job it is, and the file (for the log). */
export interface ReleaseRequest {
  owner: string;
  reservation: HeldReservation;
  file: string;
}

export class BudgetReleases {
  readonly #budget: CreditBudget;
  readonly #logger: Logger;
  readonly #metrics: DocmillMetrics | undefined;
  readonly #retryDelayMs: (retry: number) => number;
  readonly #retrying = new Set<Promise<void>>();

  constructor(budget: CreditBudget, options: BudgetReleasesOptions) {
    this.#budget = budget;
    this.#logger = options.logger;
    this.#metrics = options.metrics;
    this.#retryDelayMs = options.retryDelayMs ?? ((retry) => Math.min(1000 * 2 ** (retry - 1), 30_000));
  }

  /** Releases the reservation; never throws. Resolves after the first try: a failed one goes on in the background. */
  async release(request: ReleaseRequest): Promise<void> {
    if (await this.#try(request, 1)) return;
    const retrying: Promise<void> = this.#retry(request).finally(() => this.#retrying.delete(retrying));
    this.#retrying.add(retrying);
  }

  /** Releases being retried now. */
  get pending(): number {
    return this.#retrying.size;
  }

  /** Resolves once every release retried in the background has ended (done, or its reservation expired). */
  async settled(): Promise<void> {
    while (this.#retrying.size > 0) await Promise.all([...this.#retrying]);
  }

  async #retry(request: ReleaseRequest): Promise<void> {
    for (let retry = 1; ; retry++) {
      const waitMs = this.#retryDelayMs(retry);
      if (Date.now() + waitMs >= request.reservation.expiresAt || this.#budget.closed) {
        const why = this.#budget.closed ? 'the connection to Redis is closed' : 'the next try would come after its expiry';
        this.#logger.warn({ file: request.file, expiresAt: new Date(request.reservation.expiresAt).toISOString() }, `credit reservation left to expire by itself: ${why}`);
        return;
      }
      await new Promise<void>((resolve) => setTimeout(resolve, waitMs).unref());
      if (await this.#try(request, retry + 1)) {
        this.#logger.info({ file: request.file, tries: retry + 1 }, 'credit reservation released');
        return;
      }
    }
  }

  /** One try; false when it failed (logged and counted). */
  async #try(request: ReleaseRequest, attempt: number): Promise<boolean> {
    try {
      await this.#budget.release(request.owner, request.reservation.token);
      return true;
    } catch (error) {
      this.#metrics?.budgetReleaseFailures.inc();
      this.#logger.warn(
        { file: request.file, attempt, err: error },
        'could not release a credit reservation: it counts against the budget until a retry releases it',
      );
      return false;
    }
  }
}
