/**
 * The formats a command's first documents are in, guessed before it loads its work so that the engine's threads
 * load those converters meanwhile: from the first entries of a local folder, breadth first, or a file's own name.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatsAhead } from '../../src/app/formats-ahead.js';
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

describe('formatsAhead', () => {
  it('names the converters of the files in a folder and its subfolders, not of hidden ones or names the contract does not list', async () => {
    await files(['index.html', 'reports/2024/q1.pdf', 'tables/sales.xlsx', '.cache/old.docx', '_docmill/state/x.json', 'notes.txt']);
    expect(formatsAhead(dir).sort()).toEqual(['html', 'pdf', 'sheet']);
  });

  it('looks at the first entries only: a large folder is not listed whole', async () => {
    await files([...Array.from({ length: 100 }, (_, index) => `pages/p${String(index).padStart(3, '0')}.html`), 'pages/more/late.epub']);
    expect(formatsAhead(dir)).not.toContain('epub');
  });

  it('names a file\'s own converter, and none for an S3 source or a path that is not there', async () => {
    await files(['one.docx']);
    expect(formatsAhead(join(dir, 'one.docx'))).toEqual(['docx']);
    expect(formatsAhead('s3://bucket/prefix')).toEqual([]);
    expect(formatsAhead(join(dir, 'missing'))).toEqual([]);
  });
});
