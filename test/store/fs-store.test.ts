/**
 * FsStore on a real temporary folder: the layout, atomic writes (no temporary file survives), containment of
 * hostile paths, state and content index, copies, and the manifest (including several processes appending).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEMP_MARKER } from '../../src/common/atomic-file.js';
import { FsStore } from '../../src/store/fs-store.js';
import { rangeKey } from '../../src/store/layout.js';
import { makeTempDir, rejectionOf, removeTempDir } from '../helpers/temp-files.js';
import { SAMPLE_OUTPUTS, collect, failedEntry, listFiles, sampleEntry, sampleState, sha256Of } from './samples.js';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MANIFEST_WRITER = fileURLToPath(new URL('./fixtures/manifest-writer.ts', import.meta.url));

// Each case twice: file calls made inline (a local file system, the default here) and through the thread pool (as on a
// network file system: common/inline-file-calls.ts).
describe.each([
  { calls: 'inline', options: {} },
  { calls: 'pooled', options: { inlineFileCalls: false as const } },
])('file calls $calls', ({ options }) => {
  let parent: string;
  let root: string;
  let store: FsStore;

  beforeEach(async () => {
    parent = await makeTempDir();
    root = join(parent, 'out');
    store = new FsStore(root, root, options);
  });

  afterEach(async () => {
    await store.close();
    await removeTempDir(parent);
  });

  /** Where the fs store's content index keeps an entry: 256 folders by the hash's first two digits. */
  function indexEntry(sha256: string, optionsFingerprint: string): string {
    return `_docmill/index/${sha256.slice(0, 2)}/${sha256}.${optionsFingerprint}.json`;
  }

  function read(key: string): Promise<string> {
    return readFile(join(root, key), 'utf8');
  }

  describe('FsStore outputs', () => {
    it('writes each output under the mirrored path with its suffix, JSON pretty-printed', async () => {
      const keys = await store.writeDocument('a/b/report.pdf', SAMPLE_OUTPUTS);

      expect(keys).toEqual(['a/b/report.pdf.md', 'a/b/report.pdf.json', 'a/b/report.pdf.pages.json', 'a/b/report.pdf.blocks.json']);
      expect(await listFiles(root)).toEqual([...keys].sort());
      expect(await read('a/b/report.pdf.md')).toBe(SAMPLE_OUTPUTS.markdown);
      expect(await read('a/b/report.pdf.json')).toBe(`${JSON.stringify(SAMPLE_OUTPUTS.json, null, 2)}\n`);
      expect(await read('a/b/report.pdf.pages.json')).toBe(`${JSON.stringify(SAMPLE_OUTPUTS.pages, null, 2)}\n`);
      expect(await read('a/b/report.pdf.blocks.json')).toBe(`${JSON.stringify(SAMPLE_OUTPUTS.blocks, null, 2)}\n`);
    });

    it('writes only the outputs present, and an empty Markdown as an empty file', async () => {
      const keys = await store.writeDocument('notes.docx', { markdown: '' });
      expect(keys).toEqual(['notes.docx.md']);
      expect(await listFiles(root)).toEqual(['notes.docx.md']);
      expect(await read('notes.docx.md')).toBe('');
    });

    it('replaces earlier outputs whole and leaves no temporary file', async () => {
      await store.writeDocument('r.pdf', { markdown: 'old '.repeat(10_000) });
      await store.writeDocument('r.pdf', { markdown: 'new' });
      expect(await read('r.pdf.md')).toBe('new');
      expect((await listFiles(root)).filter((file) => file.includes(TEMP_MARKER))).toEqual([]);
    });

    it('reports a failed write as STORE_WRITE_FAILED naming the key, and leaves no temporary file', async () => {
      // A folder where the Markdown file should go: the final rename fails.
      await mkdir(join(root, 'a/report.pdf.md'), { recursive: true });
      const error = await rejectionOf(store.writeDocument('a/report.pdf', { markdown: '# x', json: { a: 1 } }));

      expect(error).toMatchObject({ code: 'STORE_WRITE_FAILED', key: 'a/report.pdf.md' });
      const files = await listFiles(root);
      expect(files.filter((file) => file.includes(TEMP_MARKER))).toEqual([]);
    });

    it('reports a write under a file used as a folder as STORE_WRITE_FAILED, leaving no temporary file', async () => {
      await mkdir(root, { recursive: true });
      await writeFile(join(root, 'a'), 'I am a file');
      const error = await rejectionOf(store.writeDocument('a/report.pdf', { markdown: '# x' }));
      expect(error).toMatchObject({ code: 'STORE_WRITE_FAILED' });
      expect(await listFiles(root)).toEqual(['a']);
    });

    it.each([
      ['../../escape.pdf', '__/__/escape.pdf.md'],
      ['/etc/passwd', 'etc/passwd.md'],
      ['a\\..\\..\\b.pdf', 'a/__/__/b.pdf.md'],
      ['C:\\win\\x.pdf', 'win/x.pdf.md'],
      ['_docmill/manifest.jsonl', '_docmill_/manifest.jsonl.md'],
    ])('keeps the outputs of hostile path %j inside the root', async (hostile, expected) => {
      const keys = await store.writeDocument(hostile, { markdown: 'x' });
      expect(keys).toEqual([expected]);
      // Nothing was written beside the root, only inside it.
      expect(await listFiles(parent)).toEqual([`out/${expected}`]);
    });

    it('refuses a path that names nothing with STORE_UNSAFE_PATH before writing', async () => {
      const error = await rejectionOf(store.writeDocument('../..', { markdown: 'x' }));
      expect(error).toMatchObject({ code: 'STORE_UNSAFE_PATH' });
      expect(await listFiles(parent)).toEqual([]);
    });
  });

  describe('FsStore state and content index', () => {
    it('records every state as one line of _docmill/records.jsonl, read back by path and by content and options', async () => {
      const state = sampleState();
      await store.writeState(state);
      const other = sampleState({ relativePath: 'c.pdf' });
      await store.writeState(other);

      expect(await store.readState('a/b/report.pdf')).toEqual(state);
      expect(await store.findByContent(state.sha256, state.optionsFingerprint)).toEqual(state);
      expect(await store.findByContent(other.sha256, other.optionsFingerprint)).toEqual(other);
      // No file a document: two lines in one file.
      expect(await listFiles(root)).toEqual(['_docmill/records.jsonl']);
      expect((await read('_docmill/records.jsonl')).split('\n')).toEqual([JSON.stringify({ v: 1, state }), JSON.stringify({ v: 1, state: other }), '']);
    });

    it('answers with the last state of a path; content its path no longer holds is not found', async () => {
      const state = sampleState();
      await store.writeState(state);
      const changed = { ...state, sha256: sha256Of('changed'), convertedAt: '2026-11-25T12:00:00.000Z' };
      await store.writeState(changed);
      expect(await store.readState('a/b/report.pdf')).toEqual(changed);
      // The path's outputs are of the new content now.
      expect(await store.findByContent(state.sha256, state.optionsFingerprint)).toBeUndefined();
      expect(await store.findByContent(changed.sha256, changed.optionsFingerprint)).toEqual(changed);
      expect(await collect(store.documentStates())).toEqual([changed]);
    });

    it('reads the records that another store on the same folder (another worker process) appended since', async () => {
      const second = new FsStore(root);
      try {
        const first = sampleState({ relativePath: 'first.pdf' });
        await store.writeState(first);
        expect(await second.readState('first.pdf')).toEqual(first);
        const later = sampleState({ relativePath: 'later.pdf' });
        await second.writeState(later);
        expect(await store.findByContent(later.sha256, later.optionsFingerprint)).toEqual(later);
        await second.removeDocument('first.pdf', { deleteOutputs: true, record: sampleEntry({ path: 'first.pdf', status: 'removed', outputs: [] }) });
        expect(await store.readState('first.pdf')).toBeUndefined();
        expect((await collect(store.documentStates())).map((found) => found.relativePath)).toEqual(['later.pdf']);
      } finally {
        await second.close();
      }
    });

    it('reads, copies from and removes the records of a store written before 2026-11-26 (a file each); a new state wins', async () => {
      const state = sampleState({ outputs: await store.writeDocument('a/b/report.pdf', SAMPLE_OUTPUTS) });
      const kept = sampleState({ relativePath: 'kept.pdf', sha256: sha256Of('kept') });
      const formerFiles = {
        '_docmill/state/a/b/report.pdf.json': state,
        [`_docmill/index/${state.sha256}/${state.optionsFingerprint}.json`]: state,
        '_docmill/state/kept.pdf.json': kept,
        [indexEntry(kept.sha256, kept.optionsFingerprint)]: kept,
      };
      for (const [key, record] of Object.entries(formerFiles)) {
        await mkdir(dirname(join(root, key)), { recursive: true });
        await writeFile(join(root, key), `${JSON.stringify(record, null, 2)}\n`);
      }
      const reopened = new FsStore(root);
      try {
        expect(await reopened.readState('a/b/report.pdf')).toEqual(state);
        expect(await reopened.findByContent(state.sha256, state.optionsFingerprint)).toEqual(state);
        expect(await reopened.findByContent(kept.sha256, kept.optionsFingerprint)).toEqual(kept);
        expect(await reopened.copyDocument(state, 'copy.pdf')).toContain('copy.pdf.md');
        const again = { ...kept, convertedAt: '2026-12-01T00:00:00.000Z' };
        await reopened.writeState(again);
        expect(await reopened.readState('kept.pdf')).toEqual(again);
        expect((await collect(reopened.documentStates())).map((found) => found.convertedAt).sort()).toEqual([state.convertedAt, again.convertedAt].sort());

        await reopened.removeDocument('a/b/report.pdf', { deleteOutputs: true, record: failedEntry('a/b/report.pdf') });
        expect(await reopened.readState('a/b/report.pdf')).toBeUndefined();
        expect(await reopened.findByContent(state.sha256, state.optionsFingerprint)).toBeUndefined();
        expect((await listFiles(root)).filter((key) => key.includes('report.pdf'))).toEqual([]);
      } finally {
        await reopened.close();
      }
    });

    it('reports a record line of the wrong shape as STORE_INVALID_RECORD naming the log', async () => {
      await mkdir(join(root, '_docmill'), { recursive: true });
      await writeFile(join(root, '_docmill/records.jsonl'), `${JSON.stringify({ v: 1, state: { relativePath: 'x.pdf', sha256: 'ab', optionsFingerprint: 'cd', outputs: 'x.pdf.md' } })}\n`);
      expect(await rejectionOf(store.readState('x.pdf'))).toMatchObject({ code: 'STORE_INVALID_RECORD', key: '_docmill/records.jsonl' });
    });

    it('answers undefined for unknown paths, content and options', async () => {
      const state = sampleState();
      await store.writeState(state);
      expect(await store.readState('a/b/other.pdf')).toBeUndefined();
      expect(await store.findByContent(sha256Of('other'), state.optionsFingerprint)).toBeUndefined();
      expect(await store.findByContent(state.sha256, 'fedcba9876543210')).toBeUndefined();
    });

    it('does not hand out the state of another path that maps to the same safe path', async () => {
      await store.writeState(sampleState({ relativePath: 'a/b.pdf' }));
      expect(await store.readState('a\\b.pdf')).toBeUndefined();
      expect(await store.readState('a/b.pdf')).toBeDefined();
    });

    it('stores the state of a hostile path inside the root', async () => {
      await store.writeState(sampleState({ relativePath: '../../x.pdf' }));
      expect(await store.readState('../../x.pdf')).toMatchObject({ relativePath: '../../x.pdf' });
      expect((await listFiles(parent)).every((file) => file.startsWith('out/_docmill/'))).toBe(true);
    });

    it('reports a damaged state file of a store written before 2026-11-26 as STORE_INVALID_RECORD naming it', async () => {
      await mkdir(join(root, '_docmill/state'), { recursive: true });
      await writeFile(join(root, '_docmill/state/x.pdf.json'), '{"relativePath": "x.pdf"');
      expect(await rejectionOf(store.readState('x.pdf'))).toMatchObject({
        code: 'STORE_INVALID_RECORD',
        key: '_docmill/state/x.pdf.json',
      });
      await writeFile(join(root, '_docmill/state/x.pdf.json'), '{"relativePath": "x.pdf"}');
      expect(await rejectionOf(store.readState('x.pdf'))).toMatchObject({ code: 'STORE_INVALID_RECORD' });
    });
  });

  describe('FsStore copyDocument', () => {
    it('copies the recorded outputs to the layout of the new path and returns the new keys', async () => {
      const outputs = await store.writeDocument('a/b/report.pdf', SAMPLE_OUTPUTS);
      const from = sampleState({ outputs });

      const copied = await store.copyDocument(from, 'c/copy of report.pdf');

      expect(copied).toEqual([
        'c/copy of report.pdf.md',
        'c/copy of report.pdf.json',
        'c/copy of report.pdf.pages.json',
        'c/copy of report.pdf.blocks.json',
      ]);
      for (const [index, key] of copied.entries()) expect(await read(key)).toBe(await read(outputs[index]!));
      expect((await listFiles(root)).filter((file) => file.includes(TEMP_MARKER))).toEqual([]);
    });

    it('fails with STORE_OUTPUT_MISSING, writing nothing, when a recorded output is gone', async () => {
      await store.writeDocument('a.pdf', { markdown: '# a' });
      const from = sampleState({ relativePath: 'a.pdf', outputs: ['a.pdf.md', 'a.pdf.json'] });
      expect(await rejectionOf(store.copyDocument(from, 'b.pdf'))).toMatchObject({
        code: 'STORE_OUTPUT_MISSING',
        key: 'a.pdf.json',
      });
      expect(await listFiles(root)).toEqual(['a.pdf.md']);
    });

    it('refuses a state whose outputs point outside its own layout', async () => {
      await store.writeState(sampleState());
      const from = sampleState({ relativePath: 'a.pdf', outputs: ['_docmill/state/a/b/report.pdf.json'] });
      expect(await rejectionOf(store.copyDocument(from, 'b.pdf'))).toMatchObject({ code: 'STORE_INVALID_RECORD' });
    });
  });

  /** Every folder below `dir`, relative and sorted ('a', 'a/b', ...). */
  async function listFolders(dir: string): Promise<string[]> {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isDirectory())
      .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
      .sort();
  }

  describe('FsStore deletions prune the folders they empty', () => {
    const removal = (path: string) => ({ deleteOutputs: true, record: sampleEntry({ path, status: 'removed', outputs: [] }) });

    it('removes the mirrored folders a removal emptied, up to the root', async () => {
      const deep = 'sub dir/deeper/gone é.pdf';
      await store.writeState(sampleState({ relativePath: deep, outputs: await store.writeDocument(deep, SAMPLE_OUTPUTS) }));
      const sibling = 'sub dir/kept.pdf';
      await store.writeState(sampleState({ relativePath: sibling, outputs: await store.writeDocument(sibling, { markdown: 'kept' }) }));

      await store.removeDocument(deep, removal(deep));

      expect(await listFiles(root)).toEqual(['_docmill/manifest.jsonl', '_docmill/records.jsonl', 'sub dir/kept.pdf.md']);
      // The sibling holds `sub dir/`; `deeper/` went with its last file.
      expect(await listFolders(root)).toEqual(['_docmill', '_docmill/tmp', 'sub dir']);

      await store.removeDocument(sibling, removal(sibling));
      // Nothing of the source tree is left; the root and the bookkeeping folders stay, empty or not.
      expect(await listFolders(root)).toEqual(['_docmill', '_docmill/tmp']);
      expect(await listFiles(root)).toEqual(['_docmill/manifest.jsonl', '_docmill/records.jsonl']);
    });

    it('keeps a folder that holds something else, and the root itself when a top-level document goes', async () => {
      await store.writeDocument('only.pdf', { markdown: 'only' });
      await mkdir(join(root, 'a', 'b'), { recursive: true });
      await writeFile(join(root, 'a', 'user notes.txt'), 'not ours');
      await store.writeDocument('a/b/c.pdf', { markdown: 'c' });

      await store.removeDocument('only.pdf', removal('only.pdf'));
      await store.removeDocument('a/b/c.pdf', removal('a/b/c.pdf'));

      expect(await listFiles(root)).toEqual(['_docmill/manifest.jsonl', 'a/user notes.txt']);
      expect(await listFolders(root)).toEqual(['_docmill', '_docmill/tmp', 'a']);
    });

    it('prunes a page range folder once its last work file is deleted, keeping _docmill/ranges', async () => {
      const keys = [rangeKey('b'.repeat(64), '0123abcd', 1, 50, 'pdf'), rangeKey('b'.repeat(64), '0123abcd', 51, 99, 'pdf')];
      for (const key of keys) await store.writeWorkFile(key, 'bytes');
      await store.deleteWorkFiles(keys.slice(0, 1));
      expect(await listFolders(root)).toContain(`_docmill/ranges/${'b'.repeat(64)}/0123abcd`);
      await store.deleteWorkFiles(keys.slice(1));
      expect(await listFolders(root)).toEqual(['_docmill', '_docmill/ranges', '_docmill/tmp']);
    });

    it('never fails a write whose folder a concurrent removal is pruning', async () => {
      // Each round writes a document into the folder another document's removal empties at the same moment.
      for (let round = 0; round < 40; round++) {
        const gone = `shared/round ${round}/gone.pdf`;
        await store.writeDocument(gone, { markdown: 'gone' });
        await Promise.all([store.removeDocument(gone, removal(gone)), store.writeDocument(`shared/round ${round}/new.pdf`, SAMPLE_OUTPUTS)]);
        expect(await read(`shared/round ${round}/new.pdf.md`)).toBe(SAMPLE_OUTPUTS.markdown);
      }
    });
  });

  describe('FsStore manifest', () => {
    it('appends one JSON line per entry, and failures also to failures.jsonl', async () => {
      const converted = sampleEntry();
      const failed = failedEntry('bad.pdf');
      await store.appendManifest(converted);
      await store.appendManifest(failed);

      expect(await read('_docmill/manifest.jsonl')).toBe(`${JSON.stringify(converted)}\n${JSON.stringify(failed)}\n`);
      expect(await read('_docmill/failures.jsonl')).toBe(`${JSON.stringify(failed)}\n`);
      expect(await collect(store.readFailures())).toEqual([failed]);
    });

    it('finds the entry a path got since a time among the newest lines, and none older or of another path', async () => {
      expect(await store.recordedSince('a/b/report.pdf', '2025-01-02T03:00:00Z')).toBeUndefined();
      const older = sampleEntry({ at: '2025-01-01T00:00:00.000Z', attempts: 7 });
      const recent = sampleEntry({ at: '2025-01-02T03:04:05.678Z' });
      await store.appendManifest(older);
      await store.appendManifest(recent);
      for (let index = 0; index < 50; index++) await store.appendManifest(sampleEntry({ path: `other/${index}.pdf`, at: '2025-01-02T03:05:00.000Z' }));
      await appendFile(join(root, '_docmill/manifest.jsonl'), '{"path":"a/b/report.pdf","sour');

      expect(await store.recordedSince('a/b/report.pdf', '2025-01-02T03:00:00Z')).toEqual(recent);
      expect(await store.recordedSince('a/b/report.pdf', '2025-01-02T03:04:06Z')).toBeUndefined();
      expect(await store.recordedSince('a/b/report.pdf', '2024-12-31T00:00:00Z')).toEqual(recent);
      expect(await store.recordedSince('elsewhere.pdf', '2025-01-02T03:00:00Z')).toBeUndefined();
    });

    it('reads no failures before any were recorded', async () => {
      expect(await collect(store.readFailures())).toEqual([]);
    });

    it('skips a torn last line when reading failures', async () => {
      const failures = [failedEntry('one.pdf'), failedEntry('two.pdf')];
      for (const entry of failures) await store.appendManifest(entry);
      await appendFile(join(root, '_docmill/failures.jsonl'), '{"path":"three.pdf","sour');

      expect(await collect(store.readFailures())).toEqual(failures);
    });

    it('keeps lines and states whole when four processes append 200 of each at once', async () => {
      const writers = ['w1', 'w2', 'w3', 'w4'].map((id) => {
        const child = spawn(process.execPath, ['--import', 'tsx', MANIFEST_WRITER, root, id, '200'], {
          cwd: PROJECT_ROOT,
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        return once(child, 'exit').then(([code]) => ({ id, code: code as number | null, stderr }));
      });
      for (const result of await Promise.all(writers)) expect(result, result.stderr).toMatchObject({ code: 0 });

      const text = await read('_docmill/manifest.jsonl');
      expect(text.endsWith('\n')).toBe(true);
      const lines = text.slice(0, -1).split('\n');
      expect(lines).toHaveLength(800);
      const entries = lines.map((line) => JSON.parse(line) as { path: string; reason: string });
      const seen = new Set(entries.map((entry) => entry.path));
      expect(seen.size).toBe(800);
      for (const entry of entries) {
        // Each line carries ~4.5 kB of its own writer's id: a torn or interleaved line would not parse or mix ids.
        const writer = entry.path.split('/')[0]!.replace('writer-', '');
        expect(entry.reason).toBe(`${writer}:`.repeat(1500));
      }
      expect(await collect(store.readFailures())).toHaveLength(80);
      // Their states too, each whole and found by path and by content.
      const states = await collect(store.documentStates());
      expect(new Set(states.map((state) => state.relativePath))).toEqual(seen);
      for (const state of states) {
        expect(state.changeToken).toBe(`${state.relativePath.split('/')[0]!.replace('writer-', '')}:`.repeat(1500));
        expect(await store.findByContent(sha256Of(state.relativePath), '0123456789abcdef')).toEqual(state);
      }
    });
  });
});
