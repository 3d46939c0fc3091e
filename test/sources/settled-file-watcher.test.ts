/**
 * The second look at new directories: a file chokidar never reported (here hidden from it, as happens when a file
 * is created between chokidar's read of a new directory and the start of its watch) is still reported, once, and
 * files chokidar did report, or is still waiting on, are not reported twice.
 */
import { mkdir, open, readdir, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localSourceFile } from '../../src/sources/local-file.js';
import { watchSettledFiles } from '../../src/sources/settled-file-watcher.js';
import type { WatchEntry } from '../../src/sources/source.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';
import { waitFor } from '../helpers/wait.js';

const STABILITY_MS = 200;
const HIDDEN_FROM_CHOKIDAR = 'missed-by-chokidar.pdf';

let root: string;

beforeEach(async () => {
  root = await makeTempDir();
});

afterEach(async () => {
  await removeTempDir(root);
});

describe('watchSettledFiles', () => {
  it('reports a file chokidar missed in a new directory, and nothing twice', async () => {
    const entries: WatchEntry[] = [];
    const controller = new AbortController();
    let ready = (): void => undefined;
    const isReady = new Promise<void>((resolve) => {
      ready = resolve;
    });
    const running = watchSettledFiles(
      {
        path: root,
        stabilityThresholdMs: STABILITY_MS,
        ignored: (path) => basename(path) === HIDDEN_FROM_CHOKIDAR,
        toEntry: async (_event, path) => ({ kind: 'file', file: localSourceFile(path, basename(path), await stat(path)) }),
        filesBelow: async function* (directory) {
          for (const name of await readdir(directory)) yield join(directory, name);
        },
        onReady: ready,
      },
      async (entry) => {
        entries.push(entry);
      },
      controller.signal,
    );
    await isReady;

    await mkdir(join(root, 'new'));
    await writeFile(join(root, 'new', 'seen.pdf'), 'seen');
    await writeFile(join(root, 'new', HIDDEN_FROM_CHOKIDAR), 'missed');
    // Still being written when the second look comes (at 2 × 200 + 500 ms): left to chokidar, reported once.
    const growing = await open(join(root, 'new', 'growing.pdf'), 'w');
    for (let chunk = 0; chunk < 12; chunk++) {
      await growing.write('0123456789');
      await sleep(100);
    }
    await growing.close();
    const reported = (): string[] => entries.map((entry) => (entry.kind === 'file' ? `${entry.file.relativePath}:${entry.file.size}` : '?'));
    await waitFor(
      'the second look and the settled growing file',
      () => reported().includes(`${HIDDEN_FROM_CHOKIDAR}:6`) && reported().includes('growing.pdf:120'),
      { timeoutMs: 10_000, intervalMs: 25 },
    );
    // Entries are handed over one at a time, in order: once a file written after the second look is reported, that
    // look is over, and whatever it (or chokidar, before this file settled) would have reported twice has shown.
    await writeFile(join(root, 'written-last.pdf'), 'last');
    await waitFor('the file written last', () => reported().includes('written-last.pdf:4'), { timeoutMs: 10_000, intervalMs: 25 });
    controller.abort();
    await running;

    expect(reported().sort()).toEqual(['growing.pdf:120', `${HIDDEN_FROM_CHOKIDAR}:6`, 'seen.pdf:4', 'written-last.pdf:4']);
  });
});
