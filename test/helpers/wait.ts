/** Waiting on an outcome, never for a fixed time: a condition polled until it holds, with a deadline. */
import { setTimeout as delay } from 'node:timers/promises';

/** Polls `condition` until it returns a truthy value; fails with `what` (and the last error) after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  condition: () => T | Promise<T>,
  { timeoutMs = 30_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`);
    }
    await delay(intervalMs);
  }
}
