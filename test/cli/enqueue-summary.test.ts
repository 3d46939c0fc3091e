/**
 * What `docmill enqueue` tells its user after a listing: how many documents it queued and, in the words of `docmill
 * run`'s summary, what it left out and why. Real processes: the built CLI, the shared Redis.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { builtCliExists, deleteQueueKeys, docmillEnv, runDocmill, SHARED_REDIS_URL, uniqueQueueName } from '../helpers/docmill-cli.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

let home: string;
let src: string;
let queue: string;

beforeAll(() => {
  if (!builtCliExists()) throw new Error('dist/ is missing: run `npm run build` before the CLI tests');
});

beforeEach(async () => {
  home = await makeTempDir();
  src = await makeTempDir();
  queue = uniqueQueueName();
});

afterEach(async () => {
  await deleteQueueKeys(queue);
  await removeTempDir(home);
  await removeTempDir(src);
});

it('names what it did not queue in words: unsupported files, links out of the source, an earlier output folder, files the globs left out', async () => {
  await writeFile(join(src, 'notes.html'), '<p>hello</p>');
  await writeFile(join(src, 'prices.csv'), 'item,price\napple,3\n');
  await writeFile(join(src, 'README.md'), '# notes\n');
  await mkdir(join(src, 'drafts'));
  await writeFile(join(src, 'drafts', 'old.csv'), 'item\npear\n');
  await symlink(home, join(src, 'elsewhere'));
  // An earlier run's outputs: its Markdown, JSON and records are not documents.
  await mkdir(join(src, 'md-v1', '_docmill'), { recursive: true });
  await writeFile(join(src, 'md-v1', 'notes.html.md'), 'hello\n');
  await writeFile(join(src, 'md-v1', '_docmill', 'manifest.jsonl'), '{}\n');
  const result = await runDocmill(['enqueue', src, '--queue', queue, '--exclude', '**/*.csv'], docmillEnv({ home, redisUrl: SHARED_REDIS_URL }));
  expect(result.code, result.stderr).toBe(0);
  const summary = result.stderr.trim().split('\n').at(-1);
  expect(summary).toBe(
    `docmill: 1 documents in ${queue}; not converted: 1 folder of docmill outputs, 1 symbolic link outside the source, 1 unsupported extension (.md 1); 2 excluded by --include/--exclude`,
  );
});
