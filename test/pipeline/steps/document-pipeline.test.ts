/**
 * The document steps in sequence, with real parts (a source folder, a folder store, the shared Redis, a loopback API
 * behind the real client and gate): a conversion, then the skips that spend nothing — an unchanged file is not even
 * read, the same content under another path is copied.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RemoteParseApi } from '../../../src/client/remote-parse-api.js';
import { ApiGate } from '../../../src/pipeline/api-gate.js';
import { BudgetReleases } from '../../../src/pipeline/budget-releases.js';
import { convertDocument } from '../../../src/pipeline/document-pipeline.js';
import type { StepDeps } from '../../../src/pipeline/processor-deps.js';
import { SendingState } from '../../../src/pipeline/sending.js';
import { createSource } from '../../../src/sources/create-source.js';
import { FsStore } from '../../../src/store/fs-store.js';
import { okReply, startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import { makeTempDir, removeTempDir } from '../../helpers/temp-files.js';
import { captureLogs, jobData, openStepQueue, type StepQueue } from './step-fixtures.js';

const HTML = '<html><body><h1>Sales</h1></body></html>';

let steps: StepQueue;
let dir: string;
let store: FsStore;
let server: RecordingServer;
let api: RemoteParseApi;
let deps: StepDeps;

beforeEach(async () => {
  steps = await openStepQueue();
  dir = await makeTempDir();
  store = new FsStore(join(dir, 'out'));
  server = await startRecordingServer(() => okReply({ numPages: 1, creditsUsed: 1 }, { markdown: '# Sales' }));
  api = new RemoteParseApi({ apiUrl: server.url, apiKey: 'key' });
  const logger = captureLogs().logger;
  deps = {
    queue: steps.queue,
    control: steps.control,
    store,
    backend: api,
    gate: new ApiGate({ max: 2 }),
    sourceFor: (location) => createSource(location),
    logger,
    sending: new SendingState(),
    releases: new BudgetReleases(steps.control.budget, { logger }),
  };
  await writeFile(join(dir, 'report.html'), HTML);
});

afterEach(async () => {
  await api.close();
  await server.close();
  await store.close();
  await steps.close();
  await removeTempDir(dir);
});

const data = (path: string) => jobData(path, { size: HTML.length }, dir);

describe('convertDocument', () => {
  it('converts once, then skips the unchanged file without reading it, and copies the same content under another path', async () => {
    const converted = await convertDocument(await steps.context(data('report.html')), deps);
    expect(converted).toMatchObject({ status: 'converted', requests: 1, state: { origin: 'parsed', creditsUsed: 1 } });
    expect(server.requests).toHaveLength(1);

    await writeFile(join(dir, 'copy.html'), HTML);
    await rm(join(dir, 'report.html'));
    // Gone from the source, unchanged by its change token: the state alone says it is done.
    const unchanged = await convertDocument(await steps.context(data('report.html')), deps);
    expect(unchanged).toMatchObject({ status: 'skipped', reason: 'unchanged', requests: 0 });

    const copy = await convertDocument(await steps.context(data('copy.html')), deps);
    expect(copy).toMatchObject({ status: 'skipped', reason: 'same content as report.html', state: { origin: 'copied' } });
    expect(server.requests).toHaveLength(1);
  });
});
