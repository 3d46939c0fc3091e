/**
 * What a command's first documents are, seen before it loads its work: the converters the engine's threads load
 * meanwhile, from the first entries of a local folder, breadth first, or a file's own name; and the number of files,
 * when the look saw them all, so that a run of a few files starts no more threads than it has files.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lookAhead } from '../../src/app/look-ahead.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

let dir: string;

beforeEach(async () => {
  dir = await makeTempDir();
});

afterEach(async () => {
  await removeTempDir(dir);
});

async function files(paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), 'x');
  }
}

describe('lookAhead', () => {
  it('names the converters of the files in a folder and its subfolders, not of hidden ones or names the contract does not list', async () => {
    await files(['index.html', 'reports/2024/q1.pdf', 'tables/sales.xlsx', '.cache/old.docx', '_docmill/state/x.json', 'notes.txt']);
    const seen = lookAhead(dir);
    expect(seen.converters.sort()).toEqual(['html', 'pdf', 'sheet']);
    // Every file but the hidden one and docmill's own: notes.txt is not converted, but the look counts what it saw.
    expect(seen.files).toBe(4);
  });

  it('looks at the first entries only: a large folder is not listed whole, nor counted', async () => {
    await files([...Array.from({ length: 100 }, (_, index) => `pages/p${String(index).padStart(3, '0')}.html`), 'pages/more/late.epub']);
    const seen = lookAhead(dir);
    expect(seen.converters).not.toContain('epub');
    expect(seen.files).toBeUndefined();
  });

  it('counts a folder whose entries it saw to the end, however deep, and none in an empty one', async () => {
    await files(['a/b/c/one.pdf', 'a/two.docx']);
    expect(lookAhead(dir)).toEqual({ converters: expect.arrayContaining(['pdf', 'docx']), files: 2 });
    await mkdir(join(dir, 'empty'));
    expect(lookAhead(join(dir, 'empty'))).toEqual({ converters: [], files: 0 });
  });

  it('names a file\'s own converter, and nothing for an S3 source or a path that is not there', async () => {
    await files(['one.docx']);
    expect(lookAhead(join(dir, 'one.docx'))).toEqual({ converters: ['docx'], files: 1 });
    expect(lookAhead('s3://bucket/prefix')).toEqual({ converters: [], files: undefined });
    expect(lookAhead(join(dir, 'missing'))).toEqual({ converters: [], files: undefined });
  });
});
