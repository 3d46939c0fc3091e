/** Process exit codes, documented in docs/cli.md ("Exit codes"). */
export const EXIT = {
  /** Everything asked for was done. */
  ok: 0,
  /** The command ran, but some documents failed (run). */
  someFailed: 1,
  /** Usage or validation error: bad flag, bad options, unreadable or unsupported file. Nothing was sent. */
  usage: 2,
  /** The parse API refused or failed the request, or could not be reached. */
  api: 3,
  /** `run`: Redis became unreachable mid-run and did not return within --redis-wait (REDIS_UNAVAILABLE). */
  redisLost: 4,
  /** `run`: stopped at the credit budget (--max-credits); the remaining documents wait in the queue. */
  budget: 5,
  /** Interrupted by SIGINT/SIGTERM. */
  interrupted: 130,
} as const;
