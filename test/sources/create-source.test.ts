/** createSource: the right Source for a location, and clear errors for locations that cannot be one. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSource } from '../../src/sources/create-source.js';
import { S3UrlError, SourceNotFoundError } from '../../src/sources/errors.js';
import { LocalDirSource } from '../../src/sources/local-dir-source.js';
import { LocalFileSource } from '../../src/sources/local-file-source.js';
import { S3Source } from '../../src/sources/s3-source.js';
import type { ListEntry, Source } from '../../src/sources/source.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

let dir: string;
const sources: Source[] = [];

beforeEach(async () => {
  dir = await makeTempDir();
});

afterEach(async () => {
  await Promise.all(sources.splice(0).map((source) => source.close()));
  await removeTempDir(dir);
});

async function make(location: string, options?: Parameters<typeof createSource>[1]): Promise<Source> {
  const source = await createSource(location, options);
  sources.push(source);
  return source;
}

async function listAll(source: Source): Promise<ListEntry[]> {
  const entries: ListEntry[] = [];
  for await (const entry of source.list()) entries.push(entry);
  return entries;
}

describe('createSource', () => {
  it('makes a folder source for a directory, keeping the location as given', async () => {
    await mkdir(join(dir, 'in'));
    await writeFile(join(dir, 'in', 'a.pdf'), 'a');
    await mkdir(join(dir, 'in', 'out'));
    await writeFile(join(dir, 'in', 'out', 'a.pdf.md.pdf'), 'output');

    const source = await make(join(dir, 'in'), { ignorePaths: [join(dir, 'in', 'out')] });

    expect(source).toBeInstanceOf(LocalDirSource);
    expect(source.location).toBe(join(dir, 'in'));
    expect((await listAll(source)).map((entry) => entry.kind === 'file' && entry.file.relativePath)).toEqual(['a.pdf']);
  });

  it('makes a single-file source listing the file under its base name', async () => {
    await mkdir(join(dir, 'deep', 'er'), { recursive: true });
    await writeFile(join(dir, 'deep', 'er', 'Q1 Übersicht.pdf'), 'twelve bytes');

    const source = await make(join(dir, 'deep', 'er', 'Q1 Übersicht.pdf'));
    const entries = await listAll(source);

    expect(source).toBeInstanceOf(LocalFileSource);
    expect(entries).toEqual([
      {
        kind: 'file',
        file: expect.objectContaining({ relativePath: 'Q1 Übersicht.pdf', size: 12 }) as unknown,
      },
    ]);
  });

  it('reports a single file that is not selected as skipped', async () => {
    await writeFile(join(dir, 'notes.txt'), 'text');
    await writeFile(join(dir, 'a.pdf'), 'pdf');

    expect(await listAll(await make(join(dir, 'notes.txt')))).toEqual([
      { kind: 'skipped', relativePath: 'notes.txt', reason: 'unsupported' },
    ]);
    expect(await listAll(await make(join(dir, 'a.pdf'), { selection: { exclude: ['*.pdf'] } }))).toEqual([
      { kind: 'skipped', relativePath: 'a.pdf', reason: 'excluded' },
    ]);
  });

  it('fails with SOURCE_NOT_FOUND naming a path that does not exist', async () => {
    const missing = join(dir, 'no', 'such', 'folder');
    let error: unknown;
    try {
      await make(missing);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SourceNotFoundError);
    expect(error).toMatchObject({ code: 'SOURCE_NOT_FOUND' });
    expect((error as Error).message).toContain(missing);
  });

  it('makes an S3 source for s3:// locations, and refuses malformed ones', async () => {
    const source = await make('s3://bucket/docs', { endpoint: 'http://127.0.0.1:1', region: 'us-east-1' });
    expect(source).toBeInstanceOf(S3Source);
    expect(source).toMatchObject({ location: 's3://bucket/docs', bucket: 'bucket', prefix: 'docs/' });

    await expect(createSource('s3:///docs')).rejects.toThrow(S3UrlError);
    await expect(createSource('s3://')).rejects.toThrow(expect.objectContaining({ code: 'S3_INVALID_URL' }));
  });
});
