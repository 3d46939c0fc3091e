/**
 * The oracle client of the fault and scale-out benchmarks, run as a child process:
 *
 *   npx tsx bench/lib/oracle-child.ts --url URL --dir DIR --slots C
 *
 * Every file of DIR is parsed with docmill's bare RemoteParseApi, one attempt per call, the contract's retry rules
 * applied here instead: 408, 429, 5xx and network errors are retried, Retry-After honoured (plus jitter below 1 s),
 * otherwise min(2^attempt, 30) s; at most 5 attempts, a 429 not counted among them (as docmill counts it). At most
 * C requests are out at once, and a file waiting to retry holds no slot: the best a client that knows C can do.
 * Prints one JSON line: { converted, failed, failureCodes, attempts }.
 */
import { parseArgs } from 'node:util';
import { isRetryCandidate, RateLimitedError } from '../../src/backend/errors.js';
import { RemoteParseApi } from '../../src/client/remote-parse-api.js';
import { DEFAULT_RETRY_SETTINGS, retryDelayMs } from '../../src/client/retry-policy.js';
import { listHtmlFiles } from './bench-files.js';

export interface OracleResult {
  converted: number;
  failed: number;
  failureCodes: Record<string, number>;
  attempts: number;
}

const { values } = parseArgs({
  options: { url: { type: 'string' }, dir: { type: 'string' }, slots: { type: 'string', default: '4' } },
  strict: true,
});

/** A counting semaphore, FIFO. */
class Slots {
  #free: number;
  readonly #waiting: (() => void)[] = [];
  constructor(count: number) {
    this.#free = count;
  }
  async take(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }
  give(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }
}

const files = await listHtmlFiles(values.dir ?? '');
const slots = new Slots(Number(values.slots));
const api = new RemoteParseApi({ apiUrl: values.url ?? '', retry: { maxAttempts: 1 } });
const result: OracleResult = { converted: 0, failed: 0, failureCodes: {}, attempts: 0 };
const settings = { ...DEFAULT_RETRY_SETTINGS, maxWaitMs: Number.POSITIVE_INFINITY };

async function parseOne(path: string): Promise<void> {
  let counted = 0;
  for (;;) {
    await slots.take();
    let failure: unknown;
    try {
      await api.parseFile(path, undefined);
      result.attempts++;
      result.converted++;
      return;
    } catch (error) {
      result.attempts++;
      failure = error;
    } finally {
      slots.give();
    }
    if (!(failure instanceof RateLimitedError)) counted++;
    const delay = isRetryCandidate(failure) ? retryDelayMs(failure, failure instanceof RateLimitedError ? 1 : counted, settings) : undefined;
    if (delay === undefined) {
      result.failed++;
      const code = failure instanceof Error ? `${failure.name}${'status' in failure ? ` (${String(failure.status)})` : ''}` : String(failure);
      result.failureCodes[code] = (result.failureCodes[code] ?? 0) + 1;
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

await Promise.all(files.map(parseOne));
await api.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
