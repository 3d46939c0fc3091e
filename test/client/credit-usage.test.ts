/**
 * The remaining-credits poller against a loopback server: both spellings of the field, polling on after a failure,
 * stopping where the endpoint does not exist, and never a key in its logs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { creditUsageUrl, pollCreditUsage, remainingCreditsOf, type CreditUsagePoller } from '../../src/client/credit-usage.js';
import { waitFor } from '../helpers/docmill-cli.js';
import { errorReply, startRecordingServer, type RecordingServer } from '../helpers/recording-server.js';

const KEY = 'credit-usage-key-52b1e0';

let server: RecordingServer | undefined;
let poller: CreditUsagePoller | undefined;

afterEach(async () => {
  await poller?.close();
  poller = undefined;
  await server?.close();
  server = undefined;
});

/** A debug logger writing unscrubbed lines into `lines`. */
function capturingLogger(lines: string[]) {
  return pino({ level: 'debug' }, { write: (line: string) => lines.push(line) });
}

describe('credit usage', () => {
  it('is read from <api>/v2/team/credit-usage whichever form of the API URL is given', () => {
    for (const apiUrl of ['https://api.example.com', 'https://api.example.com/', 'https://api.example.com/v2', 'https://api.example.com/v2/parse']) {
      expect(creditUsageUrl(apiUrl).href, apiUrl).toBe('https://api.example.com/v2/team/credit-usage');
    }
    expect(creditUsageUrl('http://gateway.internal/firecrawl').href).toBe('http://gateway.internal/firecrawl/v2/team/credit-usage');
  });

  it('takes remaining_credits or remainingCredits, in data or at the top', () => {
    expect(remainingCreditsOf({ success: true, data: { remaining_credits: 12 } })).toBe(12);
    expect(remainingCreditsOf({ success: true, data: { remainingCredits: 0, planCredits: 500 } })).toBe(0);
    expect(remainingCreditsOf({ remainingCredits: 7 })).toBe(7);
    expect(remainingCreditsOf({ success: true, data: { remaining_credits: '12' } })).toBeUndefined();
    expect(remainingCreditsOf('12')).toBeUndefined();
  });

  it('polls on after a failure, with the bearer key, and logs neither the key nor the answer', async () => {
    let reads = 0;
    server = await startRecordingServer(() => {
      reads++;
      if (reads === 1) return errorReply(500);
      return { status: 200, json: { success: true, data: { remainingCredits: 900 - reads } } };
    });
    const seen: number[] = [];
    const lines: string[] = [];
    poller = pollCreditUsage({ apiUrl: server.url, apiKey: KEY, intervalMs: 20, logger: capturingLogger(lines), onRemaining: (credits) => seen.push(credits) });
    await waitFor('two figures after a failed read', () => seen.length >= 2);
    expect(seen.slice(0, 2)).toEqual([898, 897]);
    for (const request of server.requests) {
      expect(request.method).toBe('GET');
      expect(request.path).toBe('/v2/team/credit-usage');
      expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    }
    expect(lines.some((line) => line.includes('"status":500'))).toBe(true);
    expect(lines.join('\n')).not.toContain(KEY);
  });

  it('stops polling where the API has no such endpoint (404)', async () => {
    server = await startRecordingServer([404]);
    const seen: number[] = [];
    poller = pollCreditUsage({ apiUrl: server.url, apiKey: KEY, intervalMs: 10, onRemaining: (credits) => seen.push(credits) });
    // The poller says it is done with no read to follow: no timer is left to send another.
    await poller.stopped;
    expect(server.requests).toHaveLength(1);
    expect(seen).toEqual([]);
  });
});
