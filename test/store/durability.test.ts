/**
 * What the local store promises when the machine loses power: outputs are flushed before they are renamed into
 * place, the state and index records are not (docs/cli.md, "Outputs and the manifest"), so a record may come back
 * empty or as zeros. Such a record stands for none: the document is looked at anew, never skipped on a record
 * that names nothing, and nothing fails on it. A record damaged otherwise is still reported as such.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsStore } from '../../src/store/fs-store.js';
import { indexKey, stateKey } from '../../src/store/layout.js';
import { makeTempDir, rejectionOf, removeTempDir } from '../helpers/temp-files.js';
import { SAMPLE_OUTPUTS, collect, sampleState } from './samples.js';

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
  it('reads an empty or zero-filled state and index record as no record', async () => {
    const state = sampleState({ outputs: await store.writeDocument('a/b/report.pdf', SAMPLE_OUTPUTS) });
    await store.writeState(state);
    const keys = { state: stateKey(state.relativePath), index: indexKey(state.sha256, state.optionsFingerprint) };

    await writeFile(join(root, keys.state), '');
    await writeFile(join(root, keys.index), Buffer.alloc(300));

    expect(await store.readState(state.relativePath)).toBeUndefined();
    expect(await store.findByContent(state.sha256, state.optionsFingerprint)).toBeUndefined();
    expect(await collect(store.documentStates())).toEqual([]);
    // The outputs stay as written (flushed before their rename).
    expect(await readFile(join(root, 'a/b/report.pdf.md'), 'utf8')).toBe(SAMPLE_OUTPUTS.markdown);

    // Converted again, the records are whole again.
    await store.writeState(state);
    expect(await store.readState(state.relativePath)).toEqual(state);
    expect(await store.findByContent(state.sha256, state.optionsFingerprint)).toEqual(state);
  });

  it('still reports a record with other bytes in it as damaged', async () => {
    const state = sampleState();
    await store.writeState(state);
    await writeFile(join(root, stateKey(state.relativePath)), Buffer.concat([Buffer.alloc(10), Buffer.from('{"rel')]));
    expect(await rejectionOf(store.readState(state.relativePath))).toMatchObject({ code: 'STORE_INVALID_RECORD' });
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
