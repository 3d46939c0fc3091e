import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SummaryCounter } from '../../src/app/summary.js';
import { ParseNetworkError } from '../../src/backend/errors.js';
import { Progress } from '../../src/cli/progress.js';
import { reportError } from '../../src/cli/report-error.js';
import { createLogger } from '../../src/logging/logger.js';
import { secrets, SecretScrubber } from '../../src/logging/redact.js';

const KEY = 'fc-9f8e7d6c5b4a3210secret';

function capture(pretty: boolean) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  const scrubber = new SecretScrubber();
  scrubber.add(KEY);
  const logger = createLogger({ level: 'trace', destination, pretty, scrubber });
  return { lines, logger };
}

describe('the API key never reaches a log line', () => {
  it.each([false, true])('pretty=%s: in messages, fields, headers, errors, causes and stacks', (pretty) => {
    const { lines, logger } = capture(pretty);
    logger.info(`using key ${KEY}`);
    logger.debug({ apiKey: KEY, config: { apiKey: KEY } }, 'config');
    logger.debug({ headers: { authorization: `Bearer ${KEY}` } }, 'request');
    logger.warn({ note: `Authorization: Bearer ${KEY}` }, 'header echoed');
    const cause = new Error(`upstream said token ${KEY} is bad`);
    logger.error({ err: new ParseNetworkError(`failed with ${KEY}`, cause) }, 'network');
    logger.error(new Error(`thrown with "${KEY}"`));
    logger.trace({ nested: { deep: [{ value: `x${KEY}y` }] } }, 'nested');
    expect(lines.length).toBeGreaterThanOrEqual(7);
    const all = lines.join('');
    expect(all).not.toContain(KEY);
    expect(all).toContain('[REDACTED]');
  });

  it('scrubs any bearer token, even one never registered', () => {
    const scrubber = new SecretScrubber();
    expect(scrubber.scrub('Authorization: Bearer abc.def-123')).toBe('Authorization: Bearer [REDACTED]');
  });

  it('scrubs a key containing characters that JSON escapes', () => {
    const scrubber = new SecretScrubber();
    const key = 'k"ey\\with\\quotes';
    scrubber.add(key);
    const json = JSON.stringify({ msg: `key ${key}` });
    expect(scrubber.scrub(json)).not.toContain(JSON.stringify(key).slice(1, -1));
    expect(scrubber.scrub(`raw ${key}`)).toBe('raw [REDACTED]');
  });

  it('writes JSON lines when not pretty, so log shippers can read them', () => {
    const { lines, logger } = capture(false);
    logger.info({ file: 'a.pdf' }, 'parsed');
    const record = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(record).toMatchObject({ msg: 'parsed', file: 'a.pdf', name: 'docmill' });
  });
});

describe('a key is redacted where it stands as a value, so a short key mangles no word', () => {
  const SHORT = 'k';
  const LONG = 'llx-4b1f9e2d7c6a5038';
  const WORDS = ['worker started', 'retrying after the backoff', 'parsed kitchen-sink.docx in 12 ms', 'token bucket refilled'];

  function logLines(pretty: boolean): string {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    });
    const scrubber = new SecretScrubber();
    scrubber.add(SHORT);
    scrubber.add(LONG);
    const logger = createLogger({ level: 'trace', destination, pretty, scrubber });
    for (const words of WORDS) logger.info(words);
    logger.debug({ headers: { authorization: `Bearer ${SHORT}`, 'x-api-key': SHORT } }, 'request');
    logger.debug({ settings: { apiKey: SHORT, token: SHORT, keys: [SHORT, LONG] } }, 'settings');
    logger.warn(`GET https://api.example.com/v2/parse?key=${SHORT}&mode=fast answered 401`);
    logger.warn(`GET https://api.example.com/v2/parse?key=${LONG}&mode=fast answered 401`);
    logger.error({ err: new Error(`upstream refused https://api.example.com/v2/parse?api_key=${LONG}x (its key is ${LONG})`) }, 'parse failed');
    return lines.join('');
  }

  it.each([false, true])('pretty=%s: log lines keep their words, and neither key is printed as a value', (pretty) => {
    const all = logLines(pretty);
    for (const words of WORDS) expect(all).toContain(words);
    expect(all).not.toContain('[REDACTED]er');
    expect(all).not.toContain(LONG);
    // The short key as a header value, a field value, an item of a list, a query parameter: all gone.
    expect(all).not.toMatch(/Bearer k\b/);
    expect(all).not.toMatch(/["']k["']/);
    expect(all).not.toMatch(/key=k\b/);
    expect(all).toContain('key=[REDACTED]&mode=fast');
    expect(all).toContain('api_key=[REDACTED]x');
  });

  it('a scrubber with a short key changes a line only where the key stands as a value', () => {
    const scrubber = new SecretScrubber();
    scrubber.add(SHORT);
    for (const words of WORDS) expect(scrubber.scrub(words)).toBe(words);
    expect(scrubber.scrub('{"msg":"worker started","apiKey":"k"}')).toBe('{"msg":"worker started","apiKey":"[REDACTED]"}');
    expect(scrubber.scrub('x-api-key: k')).toBe('x-api-key: [REDACTED]');
    expect(scrubber.scrub('Authorization: Bearer k')).toBe('Authorization: Bearer [REDACTED]');
    expect(scrubber.scrub('GET /v2/parse?key=k&x=1')).toBe('GET /v2/parse?key=[REDACTED]&x=1');
    expect(scrubber.scrub("keys: ['k', 'kk']")).toBe("keys: ['[REDACTED]', 'kk']");
    // Part of a longer value is not the key.
    expect(scrubber.scrub('key=kx')).toBe('key=kx');
  });

  it('error messages and progress lines a user sees: the long key anywhere, the short key as a value', () => {
    secrets.add(SHORT);
    secrets.add(LONG);
    const apiError = reportError(
      new ParseNetworkError(`request to https://api.example.com/v2/parse?key=${SHORT} failed: the worker lost its socket (key ${LONG})`, new Error('reset')),
    );
    expect(apiError.text).toContain('the worker lost its socket');
    expect(apiError.text).toContain('?key=[REDACTED] failed');
    expect(apiError.text).not.toContain(LONG);
    const unexpected = reportError(new Error(`bad header "${SHORT}" sent to the worker with ${LONG}`));
    expect(unexpected.text).toContain('bad header "[REDACTED]" sent to the worker with [REDACTED]');

    const chunks: Buffer[] = [];
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 200 });
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    const counter = new SummaryCounter();
    const progress = new Progress(stream, createLogger({ level: 'silent' }), counter);
    const outcome = {
      status: 'failed' as const,
      relativePath: 'books/kafka.pdf',
      requests: 1,
      durationMs: 5,
      error: { status: 401, code: 'PARSE_UNAUTHORIZED', message: `key=${SHORT} refused; key ${LONG} refused` },
    };
    counter.record(outcome);
    progress.document(outcome);
    progress.stop();
    const printed = Buffer.concat(chunks).toString('utf8');
    expect(printed).toContain('books/kafka.pdf  PARSE_UNAUTHORIZED  key=[REDACTED] refused; key [REDACTED] refused');
  });
});
