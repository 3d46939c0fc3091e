/**
 * OutputStore.removeDocument and documentStates on both stores (a folder, and s3rver): with `deleteOutputs`, every
 * output kind of the layout goes (Markdown, JSON, pages, blocks, chunks), with the state and the index entry that
 * point at them, before the `removed` manifest line; without it, only the line. Another document's outputs, and an
 * index entry that names another path, stay.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FsStore } from '../../src/store/fs-store.js';
import { documentOutputKeys, indexKey, OUTPUT_KINDS, RECORDS_KEY, stateKey } from '../../src/store/layout.js';
import { OUTPUT_SUFFIX, type DocumentOutputs, type DocumentState, type ManifestEntry, type OutputStore } from '../../src/store/output-store.js';
import { parseManifestLine } from '../../src/store/records.js';
import { S3Store } from '../../src/store/s3-store.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';
import { startLocalS3rver, type LocalS3rver } from './local-s3rver.js';
import { collect, listFiles, sampleState, sha256Of } from './samples.js';

const EVERY_OUTPUT: Required<DocumentOutputs> = {
  markdown: '# Report\n',
  json: { metadata: { numPages: 1 } },
  pages: [{ page: 1, markdown: '# Report' }],
  blocks: [{ page: 1, blocks: [] }],
  chunks: [{ id: 'c1', text: 'Report' }],
  assets: [
    { name: 'image-1.png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) },
    { name: 'image-2.svg', bytes: new TextEncoder().encode('<svg/>') },
  ],
};

function removedRecord(path: string): ManifestEntry {
  return { path, source: `file:///data/${path}`, size: 0, status: 'removed', outputs: [], attempts: 0, durationMs: 1, reason: 'source removed', at: '2026-01-02T03:04:05.000Z' };
}

interface Subject {
  store: OutputStore;
  keys(): Promise<string[]>;
  manifest(): Promise<ManifestEntry[]>;
  /** The keys holding a document's state and content index entry (layout.ts). */
  recordKeys(state: DocumentState): string[];
}

let s3: LocalS3rver;
let parent: string;
let counter = 0;

beforeAll(async () => {
  [s3, parent] = await Promise.all([startLocalS3rver(), makeTempDir()]);
});

afterAll(async () => {
  await s3?.stop();
  await removeTempDir(parent);
});

const SUBJECTS: Array<[string, () => Subject]> = [
  [
    'FsStore',
    () => {
      const root = join(parent, `out-${++counter}`);
      const store = new FsStore(root);
      return {
        store,
        recordKeys: () => [RECORDS_KEY],
        keys: async () => (await listFiles(root).catch(() => [])).filter((key) => !key.startsWith('_docmill/tmp/')),
        manifest: async () =>
          (await readFile(join(root, '_docmill', 'manifest.jsonl'), 'utf8')).split('\n').flatMap((line) => parseManifestLine(line) ?? []),
      };
    },
  ],
  [
    'S3Store',
    () => {
      const prefix = `removals-${++counter}/`;
      const store = new S3Store({ location: `s3://${s3.bucket}/${prefix}`, client: s3.client });
      const keys = async () => (await s3.listAllKeys()).filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length)).sort();
      return {
        store,
        recordKeys: (state) => [stateKey(state.relativePath), indexKey(state.sha256, state.optionsFingerprint)],
        keys,
        manifest: async () => {
          await store.flush();
          const lines: ManifestEntry[] = [];
          for (const key of (await keys()).filter((key) => key.startsWith('_docmill/manifest/'))) {
            const body = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: prefix + key }));
            lines.push(...(await body.Body!.transformToString()).split('\n').flatMap((line) => parseManifestLine(line) ?? []));
          }
          return lines;
        },
      };
    },
  ],
];

describe('the layout', () => {
  it('names one key per output kind for a path, whichever kinds exist', () => {
    expect(OUTPUT_KINDS).toEqual(Object.keys(OUTPUT_SUFFIX));
    expect(documentOutputKeys('a/report one.pdf')).toEqual(Object.values(OUTPUT_SUFFIX).map((suffix) => `a/report one.pdf${suffix}`));
  });
});

describe.each(SUBJECTS)('%s.removeDocument', (_name, make) => {
  it('deletes every output, the state and its index entry, then records the removal; other documents stay', async () => {
    const { store, keys, manifest, recordKeys } = make();
    const path = 'dir/report one.pdf';
    const written = await store.writeDocument(path, EVERY_OUTPUT);
    expect(written).toHaveLength(OUTPUT_KINDS.length + EVERY_OUTPUT.assets.length);
    expect(written).toEqual(expect.arrayContaining(['dir/report one.pdf.assets/image-1.png', 'dir/report one.pdf.assets/image-2.svg']));
    const state = sampleState({ relativePath: path, outputs: written, sha256: sha256Of('removed content') });
    await store.writeState(state);
    const other = sampleState({ relativePath: 'other.pdf', outputs: await store.writeDocument('other.pdf', { markdown: 'other' }) });
    await store.writeState(other);
    expect(await collect(store.documentStates())).toHaveLength(2);

    const deleted = await store.removeDocument(path, { deleteOutputs: true, record: removedRecord(path) });

    expect(deleted.sort()).toEqual([...written].sort());
    expect(await keys()).toEqual(expect.not.arrayContaining(written));
    expect((await keys()).filter((key) => !key.startsWith('_docmill/manifest'))).toEqual(
      ['other.pdf.md', ...recordKeys(other)].sort(),
    );
    expect(await store.readState(path)).toBeUndefined();
    expect(await store.findByContent(state.sha256, state.optionsFingerprint)).toBeUndefined();
    expect((await collect(store.documentStates())).map((found) => found.relativePath)).toEqual(['other.pdf']);
    expect(await manifest()).toEqual([removedRecord(path)]);
    // Again (a removal job run twice): nothing left to delete, one more line.
    await store.removeDocument(path, { deleteOutputs: true, record: removedRecord(path) });
    expect(await manifest()).toHaveLength(2);
    await store.close();
  });

  it('leaves a document written again with only the pictures of its last conversion', async () => {
    const { store, keys } = make();
    await store.writeDocument('again.docx', EVERY_OUTPUT);
    const written = await store.writeDocument('again.docx', { markdown: '![](again.docx.assets/image-1.png)', assets: [EVERY_OUTPUT.assets[0]!] });
    expect(written).toEqual(['again.docx.md', 'again.docx.assets/image-1.png']);
    expect((await keys()).filter((key) => key.startsWith('again.docx.assets/'))).toEqual(['again.docx.assets/image-1.png']);
    await store.close();
  });

  it('deletes the pictures of a document whose state is gone, with its other outputs', async () => {
    const { store, keys } = make();
    await store.writeDocument('lost.docx', EVERY_OUTPUT);
    await store.removeDocument('lost.docx', { deleteOutputs: true, record: removedRecord('lost.docx') });
    expect((await keys()).filter((key) => !key.startsWith('_docmill/'))).toEqual([]);
    await store.close();
  });

  it('keeps every output with deleteOutputs false, recording the removal and marking the state removed', async () => {
    const { store, keys, manifest } = make();
    const written = await store.writeDocument('kept.pdf', EVERY_OUTPUT);
    const state = sampleState({ relativePath: 'kept.pdf', outputs: written });
    await store.writeState(state);
    const before = await keys();
    await store.removeDocument('kept.pdf', { deleteOutputs: false, record: removedRecord('kept.pdf') });
    expect((await keys()).filter((key) => !key.startsWith('_docmill/manifest'))).toEqual(before.filter((key) => !key.startsWith('_docmill/manifest')));
    expect(await manifest()).toEqual([removedRecord('kept.pdf')]);
    expect(await collect(store.documentStates((key) => key.endsWith('kept.pdf.json')))).toEqual([]);
    // The state still names the kept outputs, marked with the removal's time; the index entry still leads to them.
    expect(await store.readState('kept.pdf')).toEqual({ ...state, removedAt: removedRecord('kept.pdf').at });
    expect(await store.findByContent(state.sha256, state.optionsFingerprint)).toEqual(state);
    // Written again (the file is back and converted), the state is live again.
    await store.writeState({ ...state, removedAt: 'carried over by mistake' });
    expect(await store.readState('kept.pdf')).toEqual(state);
    await store.close();
  });

  it('marks no state removed that another source file recorded for the path', async () => {
    const { store } = make();
    const state = sampleState({ relativePath: 'shared.pdf', source: 'file:///other/shared.pdf', outputs: await store.writeDocument('shared.pdf', { markdown: 'x' }) });
    await store.writeState(state);
    await store.removeDocument('shared.pdf', { deleteOutputs: false, record: removedRecord('shared.pdf') });
    expect(await store.readState('shared.pdf')).toEqual(state);
    await store.close();
  });
});
