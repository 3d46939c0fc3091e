/**
 * What a capped server's request log says about a client: its window (first request in to last answer out),
 * how full it kept the server's slots, how fast it refilled a freed slot, and when its 429s came.
 */
import { writeFile } from 'node:fs/promises';
import type { RequestRecord } from './capped-parse-server.js';

export interface LogAnalysis {
  requests: number;
  successes: number;
  throttled: number;
  /** First arrival to last answer, ms. */
  windowMs: number;
  /** Fraction of the window spent with k accepted requests in flight, k = 0..capacity. */
  occupancy: number[];
  /** Mean accepted requests in flight over the window. */
  meanInFlight: number;
  /**
   * After an answer freed a slot, ms until the next accepted request arrived (answers and arrivals paired in
   * order). Meaningful while the client's concurrency is steady: when it drops, the unrefilled answers shift the
   * pairing until it climbs back, which inflates the figure.
   */
  refill: { p50: number; p95: number; max: number; mean: number };
  /** 429 bursts: requests refused within 50 ms of each other count as one burst. */
  bursts: { atMs: number; count: number }[];
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[index] ?? 0;
}

export function analyseLog(records: RequestRecord[], capacity: number): LogAnalysis {
  const empty = { p50: 0, p95: 0, max: 0, mean: 0 };
  if (records.length === 0) {
    return { requests: 0, successes: 0, throttled: 0, windowMs: 0, occupancy: [], meanInFlight: 0, refill: empty, bursts: [] };
  }
  const start = Math.min(...records.map((r) => r.arrivedAt));
  const end = Math.max(...records.map((r) => r.answeredAt));
  const windowMs = end - start;
  const accepted = records.filter((r) => r.status === 200);
  const throttled = records.filter((r) => r.status === 429);

  // Occupancy: sweep +1 at arrival, -1 at answer over the accepted requests.
  const events: [number, number][] = [];
  for (const r of accepted) events.push([r.arrivedAt, 1], [r.answeredAt, -1]);
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const timeAt = new Array<number>(capacity + 1).fill(0);
  let level = 0;
  let last = start;
  let area = 0;
  for (const [time, delta] of events) {
    const span = time - last;
    timeAt[Math.min(level, capacity)] = (timeAt[Math.min(level, capacity)] ?? 0) + span;
    area += level * span;
    level += delta;
    last = time;
  }
  timeAt[0] = (timeAt[0] ?? 0) + (end - last);
  const occupancy = timeAt.map((t) => (windowMs > 0 ? t / windowMs : 0));

  // Refill: pair each answer, in order, with the first later accepted arrival not paired yet.
  const answers = accepted.map((r) => r.answeredAt).sort((a, b) => a - b);
  const arrivals = accepted.map((r) => r.arrivedAt).sort((a, b) => a - b);
  const delays: number[] = [];
  let j = 0;
  for (const answeredAt of answers) {
    while (j < arrivals.length && (arrivals[j] ?? 0) < answeredAt) j++;
    if (j >= arrivals.length) break;
    delays.push((arrivals[j] ?? 0) - answeredAt);
    j++;
  }
  delays.sort((a, b) => a - b);
  const refill = delays.length
    ? {
        p50: percentile(delays, 0.5),
        p95: percentile(delays, 0.95),
        max: delays[delays.length - 1] ?? 0,
        mean: delays.reduce((s, d) => s + d, 0) / delays.length,
      }
    : empty;

  const bursts: { atMs: number; count: number }[] = [];
  let lastThrottleAt = -Infinity;
  for (const r of [...throttled].sort((a, b) => a.arrivedAt - b.arrivedAt)) {
    const at = r.arrivedAt - start;
    const previous = bursts[bursts.length - 1];
    if (previous && at - lastThrottleAt <= 50) previous.count++;
    else bursts.push({ atMs: at, count: 1 });
    lastThrottleAt = at;
  }

  return {
    requests: records.length,
    successes: accepted.length,
    throttled: throttled.length,
    windowMs,
    occupancy,
    meanInFlight: windowMs > 0 ? area / windowMs : 0,
    refill,
    bursts,
  };
}

export function describeOccupancy(analysis: LogAnalysis): string {
  return analysis.occupancy.map((fraction, k) => `${k}:${(fraction * 100).toFixed(1)}%`).join(' ');
}

export function describeBursts(analysis: LogAnalysis, limit = 24): string {
  if (analysis.bursts.length === 0) return 'none';
  const shown = analysis.bursts.slice(0, limit).map((b) => `${(b.atMs / 1000).toFixed(2)}s×${b.count}`);
  const more = analysis.bursts.length - shown.length;
  return shown.join(' ') + (more > 0 ? ` … (+${more} more bursts)` : '');
}

/** The raw log as JSON lines, times relative to the first arrival (ms). */
export async function saveLog(path: string, records: RequestRecord[]): Promise<void> {
  const start = records.length ? Math.min(...records.map((r) => r.arrivedAt)) : 0;
  const lines = [...records]
    .sort((a, b) => a.arrivedAt - b.arrivedAt)
    .map((r) =>
      JSON.stringify({
        arrivedMs: Number((r.arrivedAt - start).toFixed(2)),
        answeredMs: Number((r.answeredAt - start).toFixed(2)),
        status: r.status,
        inFlightAtArrival: r.inFlightAtArrival,
        bytes: r.bytes,
        ...(r.file !== undefined ? { file: r.file } : {}),
        ...(r.retryAfterMs !== undefined ? { retryAfterMs: r.retryAfterMs } : {}),
      }),
    );
  await writeFile(path, lines.join('\n') + (lines.length ? '\n' : ''));
}

/** Answers by status, e.g. { 200: 300, 429: 12, 503: 20 }. */
export function statusCounts(records: RequestRecord[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of records) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

export function describeStatuses(records: RequestRecord[]): string {
  return Object.entries(statusCounts(records))
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');
}

export interface RetryAfterBreach {
  file: string;
  /** ms from the first request of the log to the 429's answer. */
  answeredMs: number;
  retryAfterMs: number;
  /** How long after the 429's answer the file came back: less than retryAfterMs. */
  cameBackAfterMs: number;
}

/**
 * Requests for a file that arrived within the Retry-After of a 429 answered for that same file (the server's own
 * clock, answer to arrival: a client starts waiting only once it has read the answer, so this is never too strict).
 */
export function retryAfterBreaches(records: RequestRecord[]): RetryAfterBreach[] {
  const start = records.length ? Math.min(...records.map((r) => r.arrivedAt)) : 0;
  const byFile = new Map<string, RequestRecord[]>();
  for (const r of records) {
    if (r.file === undefined) continue;
    const list = byFile.get(r.file) ?? [];
    list.push(r);
    byFile.set(r.file, list);
  }
  const breaches: RetryAfterBreach[] = [];
  for (const [file, list] of byFile) {
    for (const refused of list) {
      if (refused.status !== 429 || refused.retryAfterMs === undefined) continue;
      const until = refused.answeredAt + refused.retryAfterMs;
      for (const next of list) {
        if (next === refused || next.arrivedAt <= refused.arrivedAt) continue;
        if (next.arrivedAt < until) {
          breaches.push({
            file,
            answeredMs: refused.answeredAt - start,
            retryAfterMs: refused.retryAfterMs,
            cameBackAfterMs: next.arrivedAt - refused.answeredAt,
          });
        }
      }
    }
  }
  return breaches;
}

/** Requests whose file was not read from the body (the checks above cannot see them). */
export function unnamedRequests(records: RequestRecord[]): number {
  return records.filter((r) => r.file === undefined).length;
}

/** Files the server answered 200 for more than once: documents parsed (and paid for) twice. */
export function filesParsedTwice(records: RequestRecord[]): string[] {
  const successes = new Map<string, number>();
  for (const r of records) if (r.status === 200 && r.file !== undefined) successes.set(r.file, (successes.get(r.file) ?? 0) + 1);
  return [...successes].filter(([, n]) => n > 1).map(([file]) => file);
}
