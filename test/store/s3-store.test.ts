/**
 * S3Store end to end on s3rver: the fs store's layout below a prefix, containment of hostile keys, state and
 * index, copies, and manifest segments (by size, by time, on close) read back as failures.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManifestEntry } from '../../src/store/output-store.js';
import { S3Store, type S3StoreOptions } from '../../src/store/s3-store.js';
import { rejectionOf } from '../helpers/temp-files.js';
import { startLocalS3rver, type LocalS3rver } from './local-s3rver.js';
import { SAMPLE_OUTPUTS, collect, failedEntry, sampleEntry, sampleState } from './samples.js';

let s3: LocalS3rver;
let prefixCounter = 0;

beforeAll(async () => {
  s3 = await startLocalS3rver();
});

afterAll(async () => {
  await s3?.stop();
});

/** A store on a prefix no other test uses, so tests can list "their" keys. */
function freshStore(options: Partial<S3StoreOptions> = {}): { store: S3Store; prefix: string } {
  prefixCounter += 1;
  const prefix = `runs/test-${prefixCounter}/`;
  const store = new S3Store({ location: `s3://${s3.bucket}/${prefix}`, client: s3.client, ...options });
  return { store, prefix };
}

async function keysBelow(prefix: string): Promise<string[]> {
  return (await s3.listAllKeys()).filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length));
}

async function objectText(key: string): Promise<string> {
  const response = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
  return (await response.Body?.transformToString('utf8')) ?? '';
}

describe('S3Store outputs', () => {
  it('writes each output under the prefix with the same names and content as the fs store', async () => {
    const { store, prefix } = freshStore();
    const keys = await store.writeDocument('a/b/report.pdf', SAMPLE_OUTPUTS);

    expect(keys).toEqual(['a/b/report.pdf.md', 'a/b/report.pdf.json', 'a/b/report.pdf.pages.json', 'a/b/report.pdf.blocks.json']);
    expect(await keysBelow(prefix)).toEqual([...keys].sort());
    expect(await objectText(`${prefix}a/b/report.pdf.md`)).toBe(SAMPLE_OUTPUTS.markdown);
    expect(await objectText(`${prefix}a/b/report.pdf.pages.json`)).toBe(`${JSON.stringify(SAMPLE_OUTPUTS.pages, null, 2)}\n`);
    const head = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: `${prefix}a/b/report.pdf.md` }));
    expect(head.ContentType).toBe('text/markdown; charset=utf-8');
    await head.Body?.transformToString();
    await store.close();
  });

  it('keeps hostile keys below the prefix', async () => {
    const { store, prefix } = freshStore();
    const before = new Set(await s3.listAllKeys());
    const hostile = ['../x.pdf', '/abs.pdf', '../../../../etc/passwd', 'a\\..\\..\\b.pdf', '_docmill/state/x.json', `${'ü'.repeat(300)}.pdf`];
    for (const path of hostile) await store.writeDocument(path, { markdown: path });
    await store.writeState(sampleState({ relativePath: '../state.pdf' }));

    const added = (await s3.listAllKeys()).filter((key) => !before.has(key));
    expect(added).toHaveLength(hostile.length + 2);
    for (const key of added) {
      expect(key.startsWith(prefix)).toBe(true);
      expect(key.split('/')).not.toContain('..');
    }
    expect(await keysBelow(prefix)).toEqual(
      expect.arrayContaining(['__/x.pdf.md', 'abs.pdf.md', '__/__/__/__/etc/passwd.md', '_docmill_/state/x.json.md']),
    );
    await store.close();
  });
});

describe('S3Store state and index', () => {
  it('round-trips a state and finds it by content and options', async () => {
    const { store, prefix } = freshStore();
    const state = sampleState();
    await store.writeState(state);

    expect(await store.readState(state.relativePath)).toEqual(state);
    expect(await store.findByContent(state.sha256, state.optionsFingerprint)).toEqual(state);
    expect(await keysBelow(prefix)).toEqual([
      `_docmill/index/${state.sha256}/${state.optionsFingerprint}.json`,
      '_docmill/state/a/b/report.pdf.json',
    ]);
    expect(await store.readState('a/b/missing.pdf')).toBeUndefined();
    expect(await store.findByContent(state.sha256, 'fedcba9876543210')).toBeUndefined();
    await store.close();
  });

  it('copies recorded outputs to another path', async () => {
    const { store, prefix } = freshStore();
    const outputs = await store.writeDocument('a.pdf', SAMPLE_OUTPUTS);
    const copied = await store.copyDocument(sampleState({ relativePath: 'a.pdf', outputs }), 'copies/b.pdf');

    expect(copied).toEqual(outputs.map((key) => key.replace('a.pdf', 'copies/b.pdf')));
    for (const [index, key] of copied.entries()) {
      expect(await objectText(prefix + key)).toBe(await objectText(prefix + outputs[index]!));
    }
    await store.close();
  });

  it('reports an error other than a missing key as STORE_READ_FAILED naming the key', async () => {
    const store = new S3Store({ location: 's3://no-such-bucket/p', client: s3.client });
    const error = await rejectionOf(store.readState('x.pdf'));
    expect(error).toMatchObject({ code: 'STORE_READ_FAILED', key: 's3://no-such-bucket/p/_docmill/state/x.pdf.json' });
    await store.close();
  });
});

describe('S3Store manifest segments', () => {
  function linesOf(text: string): ManifestEntry[] {
    return text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as ManifestEntry);
  }

  it('buffers lines and writes them as segments on close; failures come back through readFailures', async () => {
    const { store, prefix } = freshStore();
    const entries = [sampleEntry({ path: 'one.pdf' }), failedEntry('two.pdf'), sampleEntry({ path: 'three.pdf', status: 'skipped', reason: 'unchanged' }), failedEntry('four.pdf')];
    for (const entry of entries) await store.appendManifest(entry);
    expect(await keysBelow(prefix)).toEqual([]);

    await store.close();

    const keys = await keysBelow(prefix);
    const manifestSegments = keys.filter((key) => key.startsWith('_docmill/manifest/'));
    const failureSegments = keys.filter((key) => key.startsWith('_docmill/failures/'));
    expect(keys).toHaveLength(2);
    expect(manifestSegments[0]).toMatch(/^_docmill\/manifest\/\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{12}\.jsonl$/);
    expect(failureSegments[0]).toMatch(/^_docmill\/failures\/\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{12}\.jsonl$/);
    expect(linesOf(await objectText(prefix + manifestSegments[0]!))).toEqual(entries);

    const reader = new S3Store({ location: `s3://${s3.bucket}/${prefix}`, client: s3.client });
    expect(await collect(reader.readFailures())).toEqual([entries[1], entries[3]]);
    await reader.close();
    expect(await rejectionOf(store.appendManifest(entries[0]!))).toMatchObject({ code: 'STORE_CLOSED' });
  });

  it('writes a segment as soon as segmentLines lines are buffered', async () => {
    const { store, prefix } = freshStore({ segmentLines: 500 });
    for (let index = 0; index < 499; index += 1) await store.appendManifest(sampleEntry({ path: `f${index}.pdf` }));
    expect(await keysBelow(prefix)).toEqual([]);
    await store.appendManifest(sampleEntry({ path: 'f499.pdf' }));
    const keys = await keysBelow(prefix);
    expect(keys).toHaveLength(1);
    expect(linesOf(await objectText(prefix + keys[0]!))).toHaveLength(500);
    await store.close();
    expect(await keysBelow(prefix)).toHaveLength(1);
  });

  it('writes buffered lines after flushIntervalMs without close', async () => {
    const { store, prefix } = freshStore({ flushIntervalMs: 100 });
    await store.appendManifest(failedEntry('late.pdf'));
    expect(await keysBelow(prefix)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await keysBelow(prefix)).map((key) => key.split('/')[1])).toEqual(['failures', 'manifest']);
    await store.close();
  });

  it('reads failures across many segments and listing pages, including its own buffered lines', async () => {
    const { store } = freshStore({ listPageSize: 2 });
    const failures = Array.from({ length: 5 }, (_, index) => failedEntry(`bad-${index}.pdf`));
    for (const entry of failures.slice(0, 4)) {
      await store.appendManifest(entry);
      await store.flush();
    }
    await store.appendManifest(failures[4]!);
    // Segments written within one millisecond sort by their random id, so compare as sets.
    const read = await collect(store.readFailures());
    expect(read.map((entry) => entry.path).sort()).toEqual(failures.map((entry) => entry.path));
    await store.close();
  });
});

describe('S3Store recordedSince', () => {
  it('finds the entry a path got since a time in the newest segments and its own buffered lines, none older or of another path', async () => {
    const { store, prefix } = freshStore({ listPageSize: 2 });
    const now = Date.now();
    const at = (offsetMs: number) => new Date(now + offsetMs).toISOString();
    const recent = sampleEntry({ path: 'a.pdf', at: at(-1_000) });
    await store.appendManifest(sampleEntry({ path: 'a.pdf', at: at(-60_000), attempts: 9 }));
    await store.appendManifest(recent);
    await store.flush();
    for (let index = 0; index < 4; index++) {
      await store.appendManifest(sampleEntry({ path: `other-${index}.pdf`, at: at(0) }));
      await store.flush();
    }
    const buffered = sampleEntry({ path: 'b.pdf', at: at(0) });
    await store.appendManifest(buffered);

    expect(await store.recordedSince('a.pdf', at(-5_000))).toEqual(recent);
    expect(await store.recordedSince('a.pdf', at(1_000))).toBeUndefined();
    expect(await store.recordedSince('b.pdf', at(-5_000))).toEqual(buffered);
    expect(await store.recordedSince('c.pdf', at(-5_000))).toBeUndefined();

    const reader = new S3Store({ location: `s3://${s3.bucket}/${prefix}`, client: s3.client });
    expect(await reader.recordedSince('a.pdf', at(-5_000))).toEqual(recent);
    await reader.close();
    await store.close();
  });
});

describe('S3Store location', () => {
  it.each([
    ['s3://bucket', ''],
    ['s3://bucket/', ''],
    ['s3://bucket/out', 'out/'],
    ['s3://bucket//out//sub/', 'out/sub/'],
  ])('parses %j to the prefix %j', (location, prefix) => {
    const store = new S3Store({ location, client: s3.client });
    expect(store.bucket).toBe('bucket');
    expect(store.prefix).toBe(prefix);
  });

  it.each(['s3://', 's3:///prefix', 's3://bucket/../up', 's3://bucket/a/./b', 'http://bucket/x', 's3://bu cket/x'])(
    'refuses %j with STORE_INVALID_LOCATION',
    (location) => {
      expect(() => new S3Store({ location, client: s3.client })).toThrow(
        expect.objectContaining({ code: 'STORE_INVALID_LOCATION' }),
      );
    },
  );
});
