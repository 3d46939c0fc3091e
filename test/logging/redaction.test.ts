import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging/logger.js';
import { SecretScrubber } from '../../src/logging/redact.js';
import { ParseNetworkError } from '../../src/backend/errors.js';

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
