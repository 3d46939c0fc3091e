/**
 * The hosted API's remaining credits, for the `docmill_credits_remaining` gauge. docs/parse-api-v2.md does not
 * define a credit-usage endpoint, so this is best effort: GET `<api>/v2/team/credit-usage` with the bearer key,
 * reading `data.remaining_credits` or `data.remainingCredits` (the hosted API's two spellings). A server without
 * the endpoint (404, as `docmill serve` answers) stops the polling; any other failure is skipped until the next
 * poll. Nothing here logs the key, a header or a response body.
 */
import { Agent, request, type Dispatcher } from 'undici';
import type { Logger } from 'pino';
import { parseEndpoint } from './endpoint.js';

export interface CreditUsagePollerOptions {
  /** The same URL the parse client is given (base, `…/v2` or `…/v2/parse`). */
  apiUrl: string;
  apiKey?: string | undefined;
  /** Told of every remaining-credits figure read. */
  onRemaining: (credits: number) => void;
  /** @default 60000 */
  intervalMs?: number;
  logger?: Logger | undefined;
  dispatcher?: Dispatcher;
}

export interface CreditUsagePoller {
  /** Settles once no read will follow: the API has no such endpoint (404), or the poller was closed. */
  readonly stopped: Promise<void>;
  close(): Promise<void>;
}

/** How long one read may take: a slow answer must not hold the next poll. */
const READ_TIMEOUT_MS = 10_000;

export function creditUsageUrl(apiUrl: string): URL {
  const url = parseEndpoint(apiUrl);
  url.pathname = url.pathname.replace(/\/parse$/, '/team/credit-usage');
  return url;
}

/** Remaining credits from a credit-usage body, or undefined when it carries none. */
export function remainingCreditsOf(body: unknown): number | undefined {
  const candidates = [body, isRecord(body) ? body.data : undefined];
  for (const candidate of candidates) {
    if (!isRecord(candidate)) continue;
    for (const field of ['remaining_credits', 'remainingCredits']) {
      const value = candidate[field];
      if (typeof value === 'number' && Number.isFinite(value)) return value;
    }
  }
  return undefined;
}

/** Reads the credits now and every `intervalMs` until closed (or until the API says it has no such endpoint). */
export function pollCreditUsage(options: CreditUsagePollerOptions): CreditUsagePoller {
  const url = creditUsageUrl(options.apiUrl);
  const ownsDispatcher = options.dispatcher === undefined;
  const dispatcher = options.dispatcher ?? new Agent({ connections: 1 });
  const intervalMs = options.intervalMs ?? 60_000;
  const stop = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  let markStopped: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    markStopped = resolve;
  });

  const readOnce = async (): Promise<'again' | 'stop'> => {
    try {
      const response = await request(url, {
        method: 'GET',
        dispatcher,
        headers: { accept: 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
        signal: AbortSignal.any([stop.signal, AbortSignal.timeout(READ_TIMEOUT_MS)]),
      });
      if (response.statusCode === 404) {
        await response.body.dump();
        options.logger?.debug('the parse API has no credit-usage endpoint: remaining credits are not reported');
        return 'stop';
      }
      if (response.statusCode !== 200) {
        await response.body.dump();
        options.logger?.debug({ status: response.statusCode }, 'credit usage not read');
        return 'again';
      }
      const remaining = remainingCreditsOf(await response.body.json());
      if (remaining !== undefined) options.onRemaining(remaining);
      else options.logger?.debug('the credit-usage answer carries no remaining credits');
    } catch (error) {
      if (!stop.signal.aborted) options.logger?.debug({ reason: error instanceof Error ? error.name : 'error' }, 'credit usage not read');
    }
    return 'again';
  };

  const cycle = (): void => {
    current = readOnce().then((next) => {
      if (next === 'again' && !stop.signal.aborted) {
        timer = setTimeout(cycle, intervalMs);
        timer.unref();
      } else {
        markStopped();
      }
    });
  };
  cycle();

  return {
    stopped,
    close: async () => {
      stop.abort();
      clearTimeout(timer);
      await current;
      markStopped();
      if (ownsDispatcher) await dispatcher.close();
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
