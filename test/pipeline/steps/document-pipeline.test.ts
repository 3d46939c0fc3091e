/**
 * The document steps in sequence, with real parts (a source folder, a folder store, the shared Redis, a loopback API
 * behind the real client and gate): a conversion, then the skips that spend nothing — an unchanged file is not even
 * read, the same content under another path is copied.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
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
import { okReply, startRecordingServer, type RecordedRequest, type RecordingServer } from '../../helpers/recording-server.js';
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
  // Each content's own hash in its Markdown, so that outputs copied from the wrong content show.
  server = await startRecordingServer((request) => okReply({ numPages: 1, creditsUsed: 1 }, { markdown: markdownOf(request) }));
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

function markdownOf(request: RecordedRequest | undefined): string {
  return `# content ${request?.parts.find((part) => part.kind === 'file')?.sha256?.slice(0, 12)}\n`;
}

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

  it('never copies the outputs of a path whose content has changed since: the old content is converted again', async () => {
    const other = '<html><body><h1>Costs</h1></body></html>';
    expect(await convertDocument(await steps.context(data('report.html')), deps)).toMatchObject({ status: 'converted' });
    await writeFile(join(dir, 'report.html'), other);
    const changed = await convertDocument(await steps.context(jobData('report.html', { size: other.length, changeToken: 'mtime-2:41' }, dir)), deps);
    expect(changed).toMatchObject({ status: 'converted' });

    // The first content again, under a new name: report.html's outputs are now of the other content.
    await writeFile(join(dir, 'copy.html'), HTML);
    const copy = await convertDocument(await steps.context(data('copy.html')), deps);
    expect(copy).toMatchObject({ status: 'converted', requests: 1 });
    expect(await readFile(join(dir, 'out', 'copy.html.md'), 'utf8')).toBe(markdownOf(server.requests[0]));
    expect(await readFile(join(dir, 'out', 'report.html.md'), 'utf8')).toBe(markdownOf(server.requests[1]));
  });
});
