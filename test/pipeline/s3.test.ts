/**
 * The S3 source and the S3 store end to end, on s3rver: `docmill run s3://in/docs --out s3://out/md`. Hostile keys
 * (`docs/../evil.html`, `docs//abs.html`) must land below the output prefix like any other. s3rver cannot store
 * such keys (it normalises `..` away and refuses `//`), so they reach docmill through a key-aliasing proxy.
 */
import { ListObjectsV2Command, PutObjectCommand, GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useCliWorkspace } from '../helpers/cli-workspace.js';
import { docmillEnv, runDocmill, SHARED_REDIS_URL } from '../helpers/docmill-cli.js';
import { expectedMarkdown, type FaultParseServer } from '../helpers/fault-parse-server.js';
import { startS3rver, type S3rverHandle } from '../helpers/s3rver.js';
import { parseManifestLine } from '../../src/store/records.js';
import { sha256 } from './pipeline-fixtures.js';
import { startAliasProxy, type AliasProxy } from './s3-alias-proxy.js';

let s3: S3rverHandle;
let server: FaultParseServer;
let home: string;
let queue: string;
let proxy: AliasProxy | undefined;

beforeAll(async () => {
  s3 = await startS3rver(['in', 'out']);
});

afterAll(async () => {
  await s3?.close();
});

const workspace = useCliWorkspace({
  faultServer: { latencyMs: 20 },
  queue: true,
  afterChildren: async () => {
    await proxy?.close();
    proxy = undefined;
  },
});

beforeEach(() => {
  ({ server, home, queue } = workspace);
});

async function put(client: S3Client, bucket: string, key: string, body: string): Promise<void> {
  await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
}

async function listKeys(client: S3Client, bucket: string, prefix = ''): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
    keys.push(...(page.Contents ?? []).map((object) => object.Key ?? ''));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
  return keys.sort();
}

async function getText(client: S3Client, bucket: string, key: string): Promise<string | undefined> {
  try {
    const response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return await response.Body?.transformToString('utf8');
  } catch {
    return undefined;
  }
}

/** The keys docmill should see below s3://in/docs, with their content; the hostile ones come through the proxy. */
const OBJECTS: Record<string, string> = {
  'docs/report one.html': '<h1>Report one</h1>\n',
  'docs/sub folder/Übersicht.csv': 'a,b\n1,2\n',
  'docs/../evil.html': '<p>tries to climb out of the prefix</p>\n',
  'docs//abs.html': '<p>an absolute-looking relative path</p>\n',
};
/** Hostile key → the plain key s3rver stores it under (it cannot store the hostile ones; see s3-alias-proxy.ts). */
const ALIASES: Record<string, string> = {
  'docs/../evil.html': 'docs/evil-dotdot.html',
  'docs//abs.html': 'docs/abs-double-slash.html',
};
/** Relative path (as the S3 source reports it) → the output path the store must use (its safe form). */
const EXPECTED: Array<{ key: string; relativePath: string; outputPath: string }> = [
  { key: 'docs/report one.html', relativePath: 'report one.html', outputPath: 'report one.html' },
  { key: 'docs/sub folder/Übersicht.csv', relativePath: 'sub folder/Übersicht.csv', outputPath: 'sub folder/Übersicht.csv' },
  { key: 'docs/../evil.html', relativePath: '../evil.html', outputPath: '__/evil.html' },
  { key: 'docs//abs.html', relativePath: 'abs.html', outputPath: 'abs.html' },
];

describe('docmill run: S3 source into an S3 store', () => {
  it('converts every object below the prefix into keys below the output prefix, hostile keys included; a rerun costs nothing', async () => {
    for (const [key, body] of Object.entries(OBJECTS)) await put(s3.client, 'in', ALIASES[key] ?? key, body);
    await put(s3.client, 'in', 'docs/notes.txt', 'not a supported extension');
    await put(s3.client, 'in', 'elsewhere/outside.html', '<p>not below docs/</p>\n');
    proxy = await startAliasProxy(s3.endpoint, 'in', ALIASES);

    const env = docmillEnv({
      home,
      apiUrl: server.url,
      redisUrl: SHARED_REDIS_URL,
      extra: { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' },
    });
    const args = ['run', 's3://in/docs', '--out', 's3://out/md', '--queue', queue, '--s3-endpoint', proxy.endpoint, '--s3-region', 'us-east-1'];

    const result = await runDocmill(args, env);

    expect(result.code, result.stderr).toBe(0);
    expect(server.requests.map((request) => request.filename).sort()).toEqual(
      ['report one.html', 'Übersicht.csv', 'evil.html', 'abs.html'].sort(),
    );

    const outKeys = await listKeys(s3.client, 'out');
    expect(outKeys.filter((key) => !key.startsWith('md/')), 'keys outside the output prefix').toEqual([]);
    expect(outKeys.filter((key) => key.split('/').includes('..') || key.includes('//')), 'keys with ".." or "//"').toEqual([]);
    expect(await listKeys(s3.client, 'in', 'md'), 'nothing written into the source bucket').toEqual([]);

    for (const { key, outputPath } of EXPECTED) {
      const body = OBJECTS[key]!;
      const name = outputPath.slice(outputPath.lastIndexOf('/') + 1);
      expect(await getText(s3.client, 'out', `md/${outputPath}.md`), `md/${outputPath}.md`).toBe(expectedMarkdown(name, Buffer.byteLength(body)));
      const json = await getText(s3.client, 'out', `md/${outputPath}.json`);
      expect(json && JSON.parse(json), `md/${outputPath}.json`).toEqual({ metadata: { numPages: 1, creditsUsed: 1 } });
    }

    // The manifest is written as segments below md/_docmill/manifest/.
    const segments = outKeys.filter((key) => key.startsWith('md/_docmill/manifest/'));
    expect(segments.length).toBeGreaterThan(0);
    const lines = [];
    for (const key of segments) {
      const text = (await getText(s3.client, 'out', key)) ?? '';
      lines.push(...text.split('\n').filter((line) => line.trim() !== '').map((line) => parseManifestLine(line)));
    }
    expect(lines.every((line) => line !== undefined)).toBe(true);
    expect(lines.filter((line) => line?.status === 'converted').map((line) => line?.path).sort()).toEqual(
      EXPECTED.map((entry) => entry.relativePath).sort(),
    );
    // The object docmill does not convert is recorded, not passed over.
    expect(lines.filter((line) => line?.status !== 'converted')).toEqual([
      expect.objectContaining({ path: 'notes.txt', status: 'skipped', reason: 'unsupported extension', extension: '.txt', outputs: [] }),
    ]);
    for (const { key, relativePath, outputPath } of EXPECTED) {
      const body = Buffer.from(OBJECTS[key]!);
      expect(lines.find((line) => line?.path === relativePath)).toMatchObject({
        status: 'converted',
        source: `s3://in/${key}`,
        size: body.length,
        sha256: sha256(body),
        outputs: [`${outputPath}.md`, `${outputPath}.json`],
      });
    }

    server.clearRequests();
    const second = await runDocmill(args, env);
    expect(second.code, second.stderr).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect((await listKeys(s3.client, 'out')).filter((key) => !key.startsWith('md/'))).toEqual([]);
  }, 120_000);
});

describe('docmill run: the output prefix inside the source prefix', () => {
  it('is left out of the listing, so a rerun finds nothing new; the source prefix itself is refused as the output', async () => {
    await put(s3.client, 'in', 'inside/a.html', '<h1>A</h1>\n');
    await put(s3.client, 'in', 'inside/b.csv', 'x,y\n1,2\n');
    const env = docmillEnv({ home, apiUrl: server.url, redisUrl: SHARED_REDIS_URL, extra: { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' } });
    const s3Flags = ['--queue', queue, '--s3-endpoint', s3.endpoint, '--s3-region', 'us-east-1'];

    const first = await runDocmill(['run', 's3://in/inside', '--out', 's3://in/inside/md', ...s3Flags], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/2 converted, 0 skipped, 0 failed · /);
    expect(await listKeys(s3.client, 'in', 'inside/md/')).toContain('inside/md/a.html.md');

    server.clearRequests();
    const second = await runDocmill(['run', 's3://in/inside', '--out', 's3://in/inside/md', ...s3Flags], env);
    expect(second.code, second.stderr).toBe(0);
    // Its outputs and records are not listed as documents docmill cannot convert.
    expect(second.stderr).toMatch(/0 converted, 2 skipped, 0 failed · /);
    expect(server.requests).toHaveLength(0);

    const same = await runDocmill(['run', 's3://in/inside', '--out', 's3://in/inside/', ...s3Flags], env);
    expect(same.code, same.stderr).toBe(2);
    expect(same.stderr).toContain('it is the source prefix itself');
  }, 120_000);
});
