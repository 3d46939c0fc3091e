/**
 * What the local store promises when the machine loses power: outputs are made durable by group commit, and a
 * document's state and manifest line are written only once its outputs are, so neither ever names an output a power
 * loss took; the record log is not flushed line by line (docs/cli.md, "Outputs and the manifest"), so its end may
 * come back torn or as zeros. Such an end stands for no record: the document is looked at anew, never skipped on a
 * record that names nothing, nothing fails on it, and the records appended after it are read.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsStore } from '../../src/store/fs-store.js';
import { DiskFlusher } from '../../src/common/disk-flush.js';
import type { WriteKind } from '../../src/store/keyed-store.js';
import { RECORDS_KEY } from '../../src/store/layout.js';
import { makeTempDir, rejectionOf, removeTempDir } from '../helpers/temp-files.js';
import { SAMPLE_OUTPUTS, collect, sampleEntry, sampleState, sha256Of } from './samples.js';

let parent: string;
let root: string;
let store: FsStore;

beforeEach(async () => {
  parent = await makeTempDir();
  root = join(parent, 'out');
  store = new FsStore(root);
});

afterEach(async () => {
  await store.close();
  await removeTempDir(parent);
});

describe('FsStore records after a power loss', () => {
  it('reads a log whose end a power loss tore or filled with zeros: the records before it, and those appended after it', async () => {
    const before = sampleState({ relativePath: 'before.pdf', outputs: await store.writeDocument('before.pdf', SAMPLE_OUTPUTS) });
    await store.writeState(before);
    const torn = sampleState({ outputs: await store.writeDocument('a/b/report.pdf', SAMPLE_OUTPUTS) });
    const log = join(root, RECORDS_KEY);
    // The state of a/b/report.pdf lost part way, then zeros where blocks were allocated but never written.
    await appendFile(log, Buffer.concat([Buffer.from(JSON.stringify({ v: 1, state: torn }).slice(0, 40)), Buffer.alloc(300)]));

    const reopened = new FsStore(root);
    try {
      expect(await reopened.readState(torn.relativePath)).toBeUndefined();
      expect(await reopened.findByContent(torn.sha256, torn.optionsFingerprint)).toBeUndefined();
      expect(await reopened.readState('before.pdf')).toEqual(before);
      expect((await collect(reopened.documentStates())).map((state) => state.relativePath)).toEqual(['before.pdf']);
      // The outputs stay as written (durable before the state was written).
      expect(await readFile(join(root, 'a/b/report.pdf.md'), 'utf8')).toBe(SAMPLE_OUTPUTS.markdown);

      // Converted again, its record follows the torn one on the same line, and is read whole.
      await reopened.writeState(torn);
      expect(await reopened.readState(torn.relativePath)).toEqual(torn);
      expect(await reopened.findByContent(torn.sha256, torn.optionsFingerprint)).toEqual(torn);
      expect(await new FsStore(root).readState(torn.relativePath)).toEqual(torn);
    } finally {
      await reopened.close();
    }
  });

  it('writes the manifest line of a second store on the same folder after the first one\'s, each whole', async () => {
    const other = new FsStore(root);
    try {
      const state = sampleState();
      await store.appendManifest({ path: 'one.pdf', source: 'file:///one.pdf', size: 1, status: 'converted', outputs: [], attempts: 1, durationMs: 1, at: state.convertedAt });
      await other.appendManifest({ path: 'two.pdf', source: 'file:///two.pdf', size: 1, status: 'converted', outputs: [], attempts: 1, durationMs: 1, at: state.convertedAt });
      await store.appendManifest({ path: 'three.pdf', source: 'file:///three.pdf', size: 1, status: 'converted', outputs: [], attempts: 1, durationMs: 1, at: state.convertedAt });
    } finally {
      await other.close();
    }
    const lines = (await readFile(join(root, '_docmill/manifest.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { path: string }).path)).toEqual(['one.pdf', 'two.pdf', 'three.pdf']);
  });
});

describe('FsStore group commit', () => {
  /**
   * A store whose flush passes are recorded and checked as they start: nothing stands yet at the names of the files
   * they flush, and no state or manifest line names those outputs.
   */
  function storeWithWatchedFlush(commitWindowMs = 20) {
    const durable = new Set<string>();
    const passes: string[][] = [];
    const flusher = new DiskFlusher(root);
    const outputOf = (temporary: string) => temporary.slice(temporary.lastIndexOf('~') + 1);
    const watched = new FsStore(join(root, 'out'), undefined, {
      commitWindowMs,
      flush: async (paths) => {
        const outputs = paths.map(outputOf);
        passes.push(outputs);
        const manifestPath = join(root, 'out/_docmill/manifest.jsonl');
        const manifest = existsSync(manifestPath) ? readFileSync(manifestPath, 'utf8') : '';
        const recordsPath = join(root, 'out', RECORDS_KEY);
        const records = existsSync(recordsPath) ? readFileSync(recordsPath, 'utf8') : '';
        for (const name of outputs) {
          expect(existsSync(join(root, 'out/docs', name)), `${name} is in place before it is durable`).toBe(false);
          expect(manifest, `a manifest line names ${name} before it is durable`).not.toContain(name);
          const source = `docs/${name.replace(/\.(md|json)$/, '')}`;
          expect(records, `the state of ${source} is written before its outputs are durable`).not.toContain(JSON.stringify(source));
        }
        await flusher.flush(paths);
        for (const name of outputs) durable.add(`docs/${name}`);
      },
    });
    return {
      store: watched,
      durable,
      passes,
      close: async () => {
        await watched.close();
        flusher.close();
      },
    };
  }

  it('renames outputs into place only once durable, before their state and manifest line, many documents to a pass', async () => {
    const watched = storeWithWatchedFlush();
    try {
      const paths = Array.from({ length: 12 }, (_, index) => `docs/page${index}.html`);
      await Promise.all(
        paths.map(async (path) => {
          const outputs = await watched.store.writeDocument(path, { markdown: `# ${path}`, json: { path } });
          for (const key of outputs) expect(watched.durable.has(key), key).toBe(true);
          await watched.store.writeState(sampleState({ relativePath: path, sha256: sha256Of(path), outputs }));
          await watched.store.appendManifest(sampleEntry({ path, outputs }));
        }),
      );
      const lines = (await readFile(join(root, 'out/_docmill/manifest.jsonl'), 'utf8')).trim().split('\n');
      expect(lines).toHaveLength(paths.length);
      expect(await readFile(join(root, 'out/docs/page3.html.md'), 'utf8')).toBe('# docs/page3.html');
      // Twelve documents finishing together: a pass or two, not one a file.
      expect(watched.passes.length).toBeLessThanOrEqual(2);
      expect(watched.passes.flat().sort()).toEqual(paths.flatMap((path) => [`${path.slice(5)}.json`, `${path.slice(5)}.md`]).sort());
    } finally {
      await watched.close();
    }
  });

  it('tells the writer once every output of its document waits, and flushes them all in one pass at once when nothing else is coming', async () => {
    // A window of a minute: the write below ends within the test's time only if the pass starts when told.
    const watched = storeWithWatchedFlush(60_000);
    try {
      let told = 0;
      const outputs = await watched.store.writeDocument('docs/lone.html', { markdown: '# lone', json: { lone: true }, assets: [{ name: 'p1-figure-1.png', bytes: new Uint8Array([1, 2, 3]) }] }, () => {
        told++;
        watched.store.commitWaiting();
      });
      expect(told).toBe(1);
      expect(watched.passes).toHaveLength(1);
      expect([...watched.passes[0]!].sort()).toEqual(['lone.html.json', 'lone.html.md', 'p1-figure-1.png']);
      for (const key of outputs.filter((key) => !key.includes('.assets/'))) expect(watched.durable.has(key), key).toBe(true);
    } finally {
      await watched.close();
    }
  });

  /** A store that records each key as its write ends (renamed into place), and fails the pictures' when asked. */
  function recordingStore(failPictures = false) {
    const renamed: string[] = [];
    const passes: number[] = [];
    const flusher = new DiskFlusher(root);
    class Recording extends FsStore {
      protected override async writeKey(key: string, body: string | Uint8Array, kind?: WriteKind, onWait?: () => void, after?: Promise<void>): Promise<void> {
        if (failPictures && key.includes('.assets/')) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        await super.writeKey(key, body, kind, onWait, after);
        renamed.push(key);
      }
    }
    const recording = new Recording(join(root, 'out'), undefined, {
      commitWindowMs: 20,
      flush: async (paths) => {
        passes.push(paths.length);
        await flusher.flush(paths);
      },
    });
    return { store: recording, renamed, passes, close: async () => (await recording.close(), flusher.close()) };
  }
  const pictures = [
    { name: 'p1-figure-1.png', bytes: new Uint8Array(4000).fill(1) },
    { name: 'p1-figure-2.png', bytes: new Uint8Array(3).fill(2) },
  ];

  it('flushes a document\'s pictures with its Markdown in one pass, and names the Markdown only after the pictures', async () => {
    const recording = recordingStore();
    try {
      await recording.store.writeDocument('docs/a.pdf', { markdown: '![](a.pdf.assets/p1-figure-1.png)', json: {}, assets: pictures });
      expect(recording.passes).toEqual([4]);
      expect(recording.renamed.slice(0, 2).sort()).toEqual(['docs/a.pdf.assets/p1-figure-1.png', 'docs/a.pdf.assets/p1-figure-2.png']);
      expect(recording.renamed.slice(2).sort()).toEqual(['docs/a.pdf.json', 'docs/a.pdf.md']);
    } finally {
      await recording.close();
    }
  });

  it('writes no Markdown whose pictures could not be written, and leaves no temporary file', async () => {
    const recording = recordingStore(true);
    try {
      const error = await rejectionOf(recording.store.writeDocument('docs/a.pdf', { markdown: '![](a.pdf.assets/p1-figure-1.png)', assets: pictures }));
      expect(error).toMatchObject({ code: 'ENOSPC' });
      expect(recording.renamed).toEqual([]);
      expect(existsSync(join(root, 'out/docs/a.pdf.md'))).toBe(false);
      expect(readdirSync(join(root, 'out/_docmill/tmp'))).toEqual([]);
    } finally {
      await recording.close();
    }
  });

  it('tells the writer when its outputs wait for the pass, before the pass', async () => {
    let waited = 0;
    const waitedAtPass: Array<{ waited: number; files: number }> = [];
    const flusher = new DiskFlusher(root);
    const told = new FsStore(join(root, 'out'), undefined, {
      commitWindowMs: 20,
      flush: async (paths) => {
        waitedAtPass.push({ waited, files: paths.length });
        await flusher.flush(paths);
      },
    });
    try {
      await told.writeDocument('docs/a.html', { markdown: '# A', json: {} }, () => waited++);
      expect(waited).toBe(1); // once, when both files wait
      // The pass that flushed them came after.
      expect(waitedAtPass).toEqual([{ waited: 1, files: 2 }]);
    } finally {
      await told.close();
      flusher.close();
    }
  });

  it('fails the write of outputs that could not be flushed, with the key and the file system\'s error, leaving nothing', async () => {
    const eio = Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
    const failing = new FsStore(join(root, 'out'), undefined, { commitWindowMs: 5, flush: () => Promise.reject(eio) });
    try {
      const error = await rejectionOf(failing.writeDocument('a.html', { markdown: '# A' }));
      expect(error).toMatchObject({ code: 'STORE_WRITE_FAILED', key: 'a.html.md' });
      expect(existsSync(join(root, 'out/a.html.md'))).toBe(false);
      expect(readdirSync(join(root, 'out/_docmill/tmp'))).toEqual([]);
    } finally {
      await failing.close();
    }
  });
});
