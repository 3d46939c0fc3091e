/**
 * S3Source.list() and open() against a real S3-compatible server (s3rver), plus the key-to-path rules on keys
 * s3rver cannot store (it keeps objects as files, so it normalises `..` and refuses leading slashes).
 */
import { ListObjectsV2Command, PutObjectCommand, type ListObjectsV2CommandOutput, type S3Client } from '@aws-sdk/client-s3';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SourceListError, SourceReadError } from '../../src/sources/errors.js';
import { createS3Client } from '../../src/sources/s3-client.js';
import { S3Source, relativePathOfKey, type S3SourceOptions } from '../../src/sources/s3-source.js';
import type { ListEntry, SourceFile } from '../../src/sources/source.js';
import { TEMP_MARKER } from '../../src/common/atomic-file.js';
import { startS3rver, type S3rverHandle } from '../helpers/s3rver.js';
import { rejectionOf } from '../helpers/temp-files.js';

const BUCKET = 'docs-bucket';
let s3: S3rverHandle;
/** ETag (without quotes) of every object put, by key. */
const etags = new Map<string, string>();

async function putObject(key: string, body: string): Promise<void> {
  const response = await s3.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: Buffer.from(body) }));
  etags.set(key, response.ETag!.replaceAll('"', ''));
}

beforeAll(async () => {
  s3 = await startS3rver([BUCKET]);
  for (const key of [
    'archive/a.pdf',
    'archive/b.docx',
    'archive/c.csv',
    'archive/Berichte/Q1 Übersicht.pdf',
    'archive/sub/d.pdf',
    'archive/sub/e.xlsx',
    'archive/sub/',
    'archive/notes.txt',
    `archive/${TEMP_MARKER}f.pdf.abc123`,
    'archive/日本/報告.docx',
    'archive-old/x.pdf',
    'top.pdf',
  ]) {
    await putObject(key, key.endsWith('/') ? '' : `body of ${key}`);
  }
});

afterAll(async () => {
  await s3?.close();
});

function source(options: Partial<S3SourceOptions> = {}): S3Source {
  return new S3Source({ location: `s3://${BUCKET}/archive`, client: s3.client, ...options });
}

async function listAll(from: S3Source): Promise<ListEntry[]> {
  const entries: ListEntry[] = [];
  for await (const entry of from.list()) entries.push(entry);
  return entries;
}

function summarise(entries: ListEntry[]): string[] {
  return entries.map((entry) =>
    entry.kind === 'file' ? `file:${entry.file.relativePath}` : `skipped:${entry.relativePath}:${entry.reason}`,
  );
}

function files(entries: ListEntry[]): SourceFile[] {
  return entries.flatMap((entry) => (entry.kind === 'file' ? [entry.file] : []));
}

/** Counts the ListObjectsV2 requests a client sends. */
function countListRequests(client: S3Client): { count: number } {
  const counter = { count: 0 };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'ListObjectsV2Command') counter.count += 1;
      return next(args);
    },
    { step: 'initialize', name: `countListRequests${Math.random()}` },
  );
  return counter;
}

/** In S3 key order (UTF-8 bytes: '.' < 'B' < 'a' < '日'). */
const EXPECTED_ARCHIVE = [
  `skipped:${TEMP_MARKER}f.pdf.abc123:temporary`,
  'file:Berichte/Q1 Übersicht.pdf',
  'file:a.pdf',
  'file:b.docx',
  'file:c.csv',
  'skipped:notes.txt:unsupported',
  'file:sub/d.pdf',
  'file:sub/e.xlsx',
  'file:日本/報告.docx',
];

describe('S3Source.list', () => {
  it('lists every page in key order, with relative paths, sizes and ETags as change tokens', async () => {
    const requests = countListRequests(s3.client);
    const entries = await listAll(source({ pageSize: 2 }));

    expect(summarise(entries)).toEqual(EXPECTED_ARCHIVE);
    expect(requests.count).toBeGreaterThanOrEqual(5); // 10 keys below archive/, 2 per page
    for (const file of files(entries)) {
      const key = `archive/${file.relativePath}`;
      expect(file).toEqual({
        uri: `s3://${BUCKET}/${key}`,
        relativePath: file.relativePath,
        size: Buffer.byteLength(`body of ${key}`),
        changeToken: etags.get(key),
      });
      expect(file.changeToken).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it('reads a prefix as a folder, with or without the trailing slash', async () => {
    const withSlash = await listAll(source({ location: `s3://${BUCKET}/archive/` }));
    const withoutSlash = await listAll(source({ location: `s3://${BUCKET}/archive` }));

    expect(summarise(withSlash)).toEqual(EXPECTED_ARCHIVE);
    expect(withoutSlash).toEqual(withSlash); // and archive-old/ is not part of it
  });

  it('lists a whole bucket with keys as relative paths', async () => {
    const entries = await listAll(source({ location: `s3://${BUCKET}`, selection: { include: ['*.pdf', '*/*.pdf'] } }));

    // Sorted here: s3rver walks its folders, so it lists archive/ before archive-old/, unlike S3 ('-' < '/').
    expect(files(entries).map((file) => file.relativePath).sort()).toEqual(['archive-old/x.pdf', 'archive/a.pdf', 'top.pdf']);
  });

  it('applies include and exclude globs to the relative path', async () => {
    const entries = await listAll(source({ selection: { include: ['**/*.pdf'], exclude: ['sub/**'] } }));

    expect(files(entries).map((file) => file.relativePath)).toEqual(['Berichte/Q1 Übersicht.pdf', 'a.pdf']);
    expect(summarise(entries)).toContain('skipped:sub/d.pdf:excluded');
  });

  it("leaves out the output prefix inside the source, and the _docmill/ records of any docmill output below it", async () => {
    for (const key of ['outputs-inside/a.html', 'outputs-inside/md/a.html.md', 'outputs-inside/md/_docmill/manifest/0001.jsonl', 'outputs-inside/v1/_docmill/state/a.html.json', 'outputs-inside/v1/a.html.md']) {
      await putObject(key, `body of ${key}`);
    }
    const location = `s3://${BUCKET}/outputs-inside`;

    const entries = await listAll(source({ location, ignoreLocations: [`s3://${BUCKET}/outputs-inside/md/`, `s3://${BUCKET}/archive`, location] }));

    // The output's own prefix not listed; an earlier output's Markdown is not a document, but its records go unsaid.
    expect(summarise(entries)).toEqual(['file:a.html', 'skipped:v1/a.html.md:unsupported']);
  });

  it('fails with SOURCE_LIST_FAILED naming the location when the bucket does not exist', async () => {
    const error = await rejectionOf(listAll(source({ location: 's3://no-such-bucket/x' })));

    expect(error).toBeInstanceOf(SourceListError);
    expect(error).toMatchObject({ code: 'SOURCE_LIST_FAILED' });
    expect((error as Error).message).toContain('s3://no-such-bucket/x');
    expect((error as Error).message).toContain('NoSuchBucket');
  });
});

describe('S3Source.open', () => {
  it('streams the bytes of a listed object', async () => {
    const from = source();
    const file = files(await listAll(from)).find((candidate) => candidate.relativePath === '日本/報告.docx')!;

    expect(await text(await from.open(file))).toBe('body of archive/日本/報告.docx');
  });

  it('fails with SOURCE_UNREADABLE naming the key when the object changed or is gone', async () => {
    await putObject('changing/doc.pdf', 'version one');
    const from = source({ location: `s3://${BUCKET}/changing/` });
    const [file] = files(await listAll(from));
    await putObject('changing/doc.pdf', 'version two');

    const changed = await rejectionOf(from.open(file!));
    const gone = await rejectionOf(from.open({ ...file!, uri: `s3://${BUCKET}/changing/missing.pdf` }));

    expect(changed).toBeInstanceOf(SourceReadError);
    expect(changed).toMatchObject({ code: 'SOURCE_UNREADABLE', failure: 'changed', path: 'changing/doc.pdf' });
    expect((changed as Error).message).toContain('changing/doc.pdf');
    expect(gone).toMatchObject({ code: 'SOURCE_UNREADABLE', failure: 'missing', path: 'changing/missing.pdf' });
  });
});

describe('S3Source.presence', () => {
  it('says whether an object once listed is there, gone, or not its to say', async () => {
    const from = source();
    expect(await from.presence(`s3://${BUCKET}/archive/Berichte/Q1 Übersicht.pdf`)).toBe('present');
    expect(await from.presence(`s3://${BUCKET}/archive/never there.pdf`)).toBe('gone');
    // Outside the prefix, another bucket, another kind of URI: nothing this source may answer for.
    expect(await from.presence(`s3://${BUCKET}/archive-old/gone.pdf`)).toBe('unknown');
    expect(await from.presence('s3://other-bucket/archive/a.pdf')).toBe('unknown');
    expect(await from.presence('file:///archive/a.pdf')).toBe('unknown');
  });

  it('answers unknown, and reports why, when the store cannot say', async () => {
    const errors: unknown[] = [];
    // Nothing listens on port 9 (discard) of the loopback: every request fails before any answer.
    const unreachable = createS3Client({ endpoint: 'http://127.0.0.1:9', region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    try {
      const from = source({ client: unreachable, onError: (error) => errors.push(error) });
      expect(await from.presence(`s3://${BUCKET}/archive/a.pdf`)).toBe('unknown');
      expect(errors).toHaveLength(1);
    } finally {
      unreachable.destroy();
    }
  });
});

describe('S3 keys as relative paths', () => {
  /** A client that answers ListObjectsV2 with fixed pages, for keys no file-backed test server can hold. */
  function clientListing(pages: string[][]): S3Client {
    let page = 0;
    const send = async (command: unknown): Promise<Partial<ListObjectsV2CommandOutput>> => {
      if (!(command instanceof ListObjectsV2Command)) throw new Error('only ListObjectsV2 is expected');
      const keys = pages[page] ?? [];
      page += 1;
      return {
        Contents: keys.map((Key) => ({ Key, ETag: '"0123456789abcdef0123456789abcdef"', Size: 1 })),
        IsTruncated: page < pages.length,
        NextContinuationToken: page < pages.length ? `token-${page}` : undefined,
      };
    };
    return { send, destroy: () => undefined } as unknown as S3Client;
  }

  it('keeps `..` segments (the store sanitises) and strips leading slashes', async () => {
    const from = new S3Source({
      location: 's3://bucket/docs',
      client: clientListing([['docs/../evil.pdf', 'docs//double.pdf'], ['docs/x/../../y.pdf', 'docs/']]),
    });

    const entries = await listAll(from);

    expect(summarise(entries)).toEqual(['file:../evil.pdf', 'file:double.pdf', 'file:x/../../y.pdf']);
    expect(files(entries)[0]!.uri).toBe('s3://bucket/docs/../evil.pdf');
  });

  it('maps keys below a folder prefix', () => {
    expect(relativePathOfKey('docs/a/b.pdf', 'docs/')).toBe('a/b.pdf');
    expect(relativePathOfKey('/lead.pdf', '')).toBe('lead.pdf');
    expect(relativePathOfKey('docs/', 'docs/')).toBe('');
  });
});
