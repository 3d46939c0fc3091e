/**
 * LocalDirSource.watch() and LocalFileSource.watch() against real file system events (chokidar 5).
 * The stability threshold is shortened to keep the file fast; the write pattern keeps its proportions.
 */
import { mkdir, open, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalDirSource } from '../../src/sources/local-dir-source.js';
import { LocalFileSource } from '../../src/sources/local-file-source.js';
import type { Source, SourceFile, WatchEntry } from '../../src/sources/source.js';
import { TEMP_MARKER, writeFileAtomic } from '../../src/common/atomic-file.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

const STABILITY_MS = 400;
const CHUNK = Buffer.alloc(16 * 1024, 'x');
const CHUNKS = 10;
const CHUNK_INTERVAL_MS = 150; // 10 chunks over 1.5 s, each gap well inside the stability threshold

let base: string;
let root: string;

beforeEach(async () => {
  base = await makeTempDir();
  root = join(base, 'root');
  await mkdir(root);
});

afterEach(async () => {
  await removeTempDir(base);
});

/** A running watch that records what it reports. */
class Recorder {
  readonly entries: WatchEntry[] = [];
  private readonly controller = new AbortController();
  private finished: Promise<void> | undefined;
  private readyResolve: () => void = () => undefined;
  readonly ready = new Promise<void>((resolve) => {
    this.readyResolve = resolve;
  });
  readonly onReady = (): void => this.readyResolve();

  start(source: Source): void {
    this.finished = source.watch(async (entry) => {
      this.entries.push(entry);
    }, this.controller.signal);
  }

  filesNamed(relativePath: string): SourceFile[] {
    return this.entries.flatMap((entry) =>
      entry.kind === 'file' && entry.file.relativePath === relativePath ? [entry.file] : [],
    );
  }

  async until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out; entries so far: ${JSON.stringify(this.entries)}`);
      await sleep(25);
    }
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await this.finished;
  }
}

async function writeSlowly(path: string): Promise<void> {
  const handle = await open(path, 'w');
  try {
    for (let index = 0; index < CHUNKS; index++) {
      await handle.write(CHUNK);
      await sleep(CHUNK_INTERVAL_MS);
    }
  } finally {
    await handle.close();
  }
}

describe('LocalDirSource.watch', () => {
  it('reports settled files once, re-reports changes, and keeps to the listing rules', async () => {
    const outside = join(base, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'secret.pdf'), 'secret');
    await mkdir(join(root, 'loops'));
    await symlink('..', join(root, 'loops', 'up')); // must not make the watcher recurse forever
    await mkdir(join(root, 'old-md', '_docmill'), { recursive: true }); // an earlier run's output folder
    await writeFile(join(root, 'old-md', '_docmill', 'manifest.jsonl'), '{}\n');
    const recorder = new Recorder();
    const watcherErrors: unknown[] = [];
    const source = new LocalDirSource({
      location: root,
      stabilityThresholdMs: STABILITY_MS,
      ignorePaths: [join(root, 'out')],
      onWatchReady: recorder.onReady,
      onError: (error) => watcherErrors.push(error),
    });
    recorder.start(source);
    await recorder.ready;

    const slow = writeSlowly(join(root, 'slow.pdf'));
    await writeFile(join(root, 'quick.pdf'), 'first');
    await writeFile(join(root, 'notes.txt'), 'not a document');
    await mkdir(join(root, 'out'));
    await writeFile(join(root, 'out', 'result.pdf'), 'an output');
    await mkdir(join(root, 'Berichte'));
    await writeFile(join(root, 'Berichte', `${TEMP_MARKER}Q1 Übersicht.pdf.abc`), 'atomic write');
    await rename(join(root, 'Berichte', `${TEMP_MARKER}Q1 Übersicht.pdf.abc`), join(root, 'Berichte', 'Q1 Übersicht.pdf'));
    await symlink(join(outside, 'secret.pdf'), join(root, 'outside-link.pdf'));
    await writeFile(join(root, 'old-md', 'written-there.pdf'), 'in an output folder: not a document to convert');

    await recorder.until(() => recorder.filesNamed('quick.pdf').length === 1);
    await writeFile(join(root, 'quick.pdf'), 'second, longer');
    await slow;
    await recorder.until(
      () => recorder.filesNamed('quick.pdf').length === 2 && recorder.filesNamed('slow.pdf').length === 1,
    );
    // A file written now settles after any repeat of the files above would have: once it is reported, a duplicate
    // (or a report of a file that must be left out) would have been too.
    await writeFile(join(root, 'written-last.pdf'), 'last');
    await recorder.until(() => recorder.filesNamed('written-last.pdf').length === 1);
    await recorder.stop();
    // chokidar alone follows `loops/up` 40 levels deep and fails with ELOOP; the source keeps it out.
    expect(watcherErrors).toEqual([]);

    const [slowFile] = recorder.filesNamed('slow.pdf');
    expect(recorder.filesNamed('slow.pdf')).toHaveLength(1);
    expect(slowFile!.size).toBe(CHUNK.length * CHUNKS);
    const [firstQuick, secondQuick] = recorder.filesNamed('quick.pdf');
    expect(firstQuick!.size).toBe('first'.length);
    expect(secondQuick!.size).toBe('second, longer'.length);
    expect(secondQuick!.changeToken).not.toBe(firstQuick!.changeToken);
    expect(recorder.filesNamed('Berichte/Q1 Übersicht.pdf')).toHaveLength(1);

    const reportedFiles = recorder.entries.flatMap((entry) => (entry.kind === 'file' ? [entry.file.relativePath] : []));
    expect(reportedFiles.sort()).toEqual(['Berichte/Q1 Übersicht.pdf', 'quick.pdf', 'quick.pdf', 'slow.pdf', 'written-last.pdf']);
    const skipped = recorder.entries.flatMap((entry) => (entry.kind === 'skipped' ? [`${entry.relativePath}:${entry.reason}`] : []));
    expect(skipped).toContain('notes.txt:unsupported');
    expect(skipped.every((line) => !line.includes(TEMP_MARKER) && !line.startsWith('out/'))).toBe(true);
  });

  it('stops when the signal aborts, and when the source closes', async () => {
    const first = new Recorder();
    const source = new LocalDirSource({ location: root, stabilityThresholdMs: STABILITY_MS, onWatchReady: first.onReady });
    first.start(source);
    await first.ready;
    await first.stop();

    const second = new Recorder();
    const closing = new LocalDirSource({ location: root, stabilityThresholdMs: STABILITY_MS, onWatchReady: second.onReady });
    const running = closing.watch(async () => undefined, new AbortController().signal);
    await second.ready.catch(() => undefined);
    await closing.close();
    await expect(running).resolves.toBeUndefined();
  });

  it('ends the watch with the error when the caller cannot take an entry', async () => {
    const recorder = new Recorder();
    const source = new LocalDirSource({ location: root, stabilityThresholdMs: STABILITY_MS, onWatchReady: recorder.onReady });
    const running = source.watch(async () => {
      throw new Error('queue unavailable');
    }, new AbortController().signal);
    await recorder.ready;
    await writeFile(join(root, 'doc.pdf'), 'x');

    await expect(running).rejects.toThrow('queue unavailable');
  });
});

describe('LocalDirSource.watch: removals', () => {
  it('reports a deleted file and a file renamed away as removed (the new name as a file), and a rewrite in place as nothing gone', async () => {
    await mkdir(join(root, 'sub dir'));
    await writeFile(join(root, 'sub dir', 'gone.pdf'), 'gone');
    await writeFile(join(root, 'old name.pdf'), 'renamed');
    await writeFile(join(root, 'kept.pdf'), 'v1');
    await writeFile(join(root, 'notes.txt'), 'unsupported: never reported');
    const recorder = new Recorder();
    const source = new LocalDirSource({ location: root, stabilityThresholdMs: STABILITY_MS, onWatchReady: recorder.onReady });
    recorder.start(source);
    await recorder.ready;

    await rm(join(root, 'sub dir', 'gone.pdf'));
    await rename(join(root, 'old name.pdf'), join(root, 'new name.pdf'));
    await writeFileAtomic(join(root, 'kept.pdf'), 'v2, saved by rename over it');
    await rm(join(root, 'notes.txt'));
    await recorder.until(
      () => recorder.entries.filter((entry) => entry.kind === 'removed').length === 2 && recorder.filesNamed('new name.pdf').length === 1 && recorder.filesNamed('kept.pdf').length === 1,
    );
    // A later, unrelated change: every report of the earlier ones has arrived by the time it is reported.
    await writeFile(join(root, 'probe.pdf'), 'probe');
    await recorder.until(() => recorder.filesNamed('probe.pdf').length === 1);
    await recorder.stop();

    const removed = recorder.entries.filter((entry) => entry.kind === 'removed');
    expect(removed.sort((a, b) => a.relativePath.localeCompare(b.relativePath))).toEqual([
      { kind: 'removed', uri: pathToFileURL(join(root, 'old name.pdf')).href, relativePath: 'old name.pdf' },
      { kind: 'removed', uri: pathToFileURL(join(root, 'sub dir', 'gone.pdf')).href, relativePath: 'sub dir/gone.pdf' },
    ]);
  });
});

describe('LocalFileSource.watch', () => {
  it('re-reports the one file when it changes, also when replaced by a rename', async () => {
    const path = join(root, 'report.pdf');
    await writeFile(path, 'v1');
    const recorder = new Recorder();
    const source = new LocalFileSource({ location: path, stabilityThresholdMs: STABILITY_MS, onWatchReady: recorder.onReady });
    recorder.start(source);
    await recorder.ready;

    await writeFile(path, 'version two');
    await recorder.until(() => recorder.filesNamed('report.pdf').length === 1);
    await writeFileAtomic(path, 'version three, renamed into place'); // how editors and docmill itself save
    await recorder.until(() => recorder.filesNamed('report.pdf').length === 2);
    await recorder.stop();

    const [second, third] = recorder.filesNamed('report.pdf');
    expect(second).toMatchObject({ relativePath: 'report.pdf', size: 'version two'.length });
    expect(third).toMatchObject({ relativePath: 'report.pdf', size: 'version three, renamed into place'.length });
  });
});
