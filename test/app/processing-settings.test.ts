/**
 * Processing settings (OCR languages, chunks): checked when given, fingerprinted, and saved with the options so
 * every worker of the queue reads what the producer was given.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { processingSettingsFrom, validatedOptions } from '../../src/app/processing-settings.js';
import { QueueControl } from '../../src/queue/queue-control.js';
import { QUEUE_PREFIX } from '../../src/queue/queue-names.js';
import { deleteQueueKeys, SHARED_REDIS_URL, uniqueQueueName } from '../helpers/docmill-cli.js';

describe('processingSettingsFrom', () => {
  it('gives nothing when nothing is asked, and the defaults for chunks: true', () => {
    expect(processingSettingsFrom({})).toEqual({});
    expect(processingSettingsFrom({ chunks: false })).toEqual({});
    expect(processingSettingsFrom({ chunks: true })).toEqual({ chunks: { maxTokens: 512, overlapTokens: 0 } });
  });

  it('normalises OCR languages and refuses what is not a tesseract code, naming it', () => {
    expect(processingSettingsFrom({ ocrLanguages: [' DEU', 'eng', 'deu', 'chi_sim'] })).toEqual({ ocrLanguages: ['deu', 'eng', 'chi_sim'] });
    expect(() => processingSettingsFrom({ ocrLanguages: ['de-DE'] })).toThrow(/OCR language "de-de" is not a tesseract language code/);
    expect(() => processingSettingsFrom({ ocrLanguages: ['../eng'] })).toThrow(/not a tesseract language code/);
    expect(() => processingSettingsFrom({ ocrLanguages: [] })).toThrow(/at least one/);
  });

  it('refuses chunk budgets that cannot work', () => {
    expect(() => processingSettingsFrom({ chunks: { maxTokens: 0 } })).toThrow(/chunk tokens must be/);
    expect(() => processingSettingsFrom({ chunks: { maxTokens: 100, overlapTokens: 100 } })).toThrow(/chunk overlap must be smaller/);
    expect(processingSettingsFrom({ chunks: { maxTokens: 100, overlapTokens: 20 } })).toEqual({ chunks: { maxTokens: 100, overlapTokens: 20 } });
  });

  it('takes page pictures as pictures too, and a resolution only with pictures and within 36..600 dpi', () => {
    expect(processingSettingsFrom({ pageImages: true })).toEqual({ images: true, pageImages: true });
    expect(processingSettingsFrom({ images: true, imageDpi: 300 })).toEqual({ images: true, imageDpi: 300 });
    expect(() => processingSettingsFrom({ imageDpi: 300 })).toThrow(/turn one on/);
    expect(() => processingSettingsFrom({ images: true, imageDpi: 10_000 })).toThrow(/imageDpi \(--image-dpi\) must be an integer from 36 to 600/);
  });

  it('keeps the fingerprint of --images when the default resolution is spelled out, and changes it for another', () => {
    const fingerprint = (settings: Parameters<typeof processingSettingsFrom>[0]) => validatedOptions({}, processingSettingsFrom(settings)).fingerprint;
    expect(fingerprint({ images: true, imageDpi: 150 })).toBe(fingerprint({ images: true }));
    expect(fingerprint({ images: true, imageDpi: 200 })).not.toBe(fingerprint({ images: true }));
    expect(fingerprint({ pageImages: true })).not.toBe(fingerprint({ images: true }));
  });
});

describe('settings saved with the options', () => {
  let name: string | undefined;
  const redis = new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: null, lazyConnect: true });

  afterEach(async () => {
    if (name) await deleteQueueKeys(name);
    name = undefined;
  });

  it('reach a worker that reads them from Redis, and read as none for options saved without them', async () => {
    name = uniqueQueueName();
    const queue = new Queue(name, { connection: redis, prefix: QUEUE_PREFIX });
    try {
      const settings = processingSettingsFrom({ ocrLanguages: ['deu'], chunks: { maxTokens: 300 } });
      const validated = validatedOptions({}, settings);
      await new QueueControl(redis, queue).saveOptions(validated.fingerprint, validated.options, validated.settings);
      // Another process: a fresh control with nothing cached.
      const worker = new QueueControl(redis, queue);
      expect(await worker.loadSettings(validated.fingerprint)).toEqual({ ocrLanguages: ['deu'], chunks: { maxTokens: 300, overlapTokens: 0 } });
      expect(await worker.loadSettings('0123456789abcdef')).toEqual({});
    } finally {
      await queue.close();
      redis.disconnect();
    }
  });
});
