/**
 * What a 429 says of the API's rate window (`rateLimitHint`, and the RateLimitedError the client raises): the wait in
 * the text only, Retry-After, the `X-RateLimit-*` and IETF `RateLimit-*` headers, "resets at <date>".
 */
import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '../../src/backend/errors.js';
import { decodeFailure } from '../../src/client/remote-parse-api.js';
import { rateLimitHint } from '../../src/client/retry-policy.js';

const NOW = Date.parse('2026-11-23T18:00:00.000Z');
const headers = (values: Record<string, string>) => (name: string) => values[name];

describe('rateLimitHint', () => {
  it('reads the wait and the reset from the hosted API\'s text when no header says them', () => {
    const text =
      'Rate limit exceeded. Consumed (req/min): 21, Remaining (req/min): 0. Upgrade your plan at https://firecrawl.dev/pricing ' +
      `for increased rate limits or please retry after 1s, resets at ${new Date(NOW + 800).toString()}`;
    const hint = rateLimitHint(headers({}), text, NOW);
    expect(hint.waitMs).toBe(1000);
    // The date is told to the second: the reset is at most a second off.
    expect(hint.resetMs).toBeGreaterThanOrEqual(0);
    expect(hint.resetMs).toBeLessThanOrEqual(800);
    expect(hint.limit).toBeUndefined();
    expect(hint.windowMs).toBeUndefined();
  });

  it('takes Retry-After over the text, and an ISO reset date in the text', () => {
    const hint = rateLimitHint(headers({ 'retry-after': '7' }), 'please retry after 32s, resets at 2026-11-23T18:00:30.000Z', NOW);
    expect(hint).toEqual({ waitMs: 7000, resetMs: 30_000 });
  });

  it('reads X-RateLimit-Limit and an X-RateLimit-Reset in epoch seconds', () => {
    const hint = rateLimitHint(
      headers({ 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 2) }),
      'Rate limit exceeded',
      NOW,
    );
    expect(hint).toEqual({ limit: 20, resetMs: 2000, waitMs: 2000 });
  });

  it('reads the IETF RateLimit headers: the policy names the window, the reset is in seconds from now', () => {
    const hint = rateLimitHint(headers({ 'ratelimit-limit': '100', 'ratelimit-reset': '15', 'ratelimit-policy': '100;w=60' }), 'Too Many Requests', NOW);
    expect(hint).toEqual({ limit: 100, windowMs: 60_000, resetMs: 15_000, waitMs: 15_000 });
  });

  it('says nothing when the answer says nothing', () => {
    expect(rateLimitHint(headers({}), 'Rate limit exceeded', NOW)).toEqual({});
  });
});

describe('the client\'s rate 429', () => {
  it('carries what the answer said of the window', () => {
    const error = decodeFailure(
      429,
      { 'x-ratelimit-limit': '20', 'retry-after': '1' },
      JSON.stringify({ success: false, error: 'Rate limit exceeded. Consumed (req/min): 21, Remaining (req/min): 0.' }),
      NOW,
    );
    expect(error).toBeInstanceOf(RateLimitedError);
    const limited = error as RateLimitedError;
    expect(limited.kind).toBe('rate');
    expect(limited.retryAfterMs).toBe(1000);
    expect(limited.rateLimit).toEqual({ limit: 20, waitMs: 1000 });
  });
});
