/**
 * `docmill watch <dir> --out <out>`: converts what is there, then files as they land. A file written slowly must be
 * converted once, when it is complete, not while half-written. Runs on the embedded redis-server.
 */
import { open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { useCliWorkspace } from '../helpers/cli-workspace.js';
import { docmillEnv, startDocmill, waitFor } from '../helpers/docmill-cli.js';
import { expectedMarkdown, type FaultParseServer } from '../helpers/fault-parse-server.js';
import { expectOutputs, fileOf, lastLineByPath, readManifest, temporaryFiles, writeTree } from './pipeline-fixtures.js';

const workspace = useCliWorkspace({ faultServer: { latencyMs: 20 } });
let server: FaultParseServer;
let home: string;
let src: string;
let out: string;

beforeEach(() => {
  ({ server, home, src, out } = workspace);
});

describe('docmill watch', () => {
  it('converts existing files, then a slowly written file once with its final content, and exits 0 on SIGTERM', async () => {
    const existing = [fileOf('inbox/first.html', '<h1>first</h1>\n'), fileOf('inbox/nested/second.csv', 'x,y\n1,2\n')];
    await writeTree(src, existing);
    const watch = startDocmill(['watch', src, '--out', out], docmillEnv({ home, apiUrl: server.url }));

    await waitFor(
      'the existing files to be converted',
      async () => {
        const byPath = lastLineByPath(await readManifest(out));
        return existing.every((file) => byPath.get(file.path)?.status === 'converted');
      },
      { timeoutMs: 45_000, intervalMs: 200 },
    );
    for (const file of existing) await expectOutputs(out, file);
    await waitFor('the watcher to be running', () => watch.stderr.includes('watching for new and changed files'), { timeoutMs: 20_000 });
    // chokidar reports changes only once its initial scan is done, which the CLI does not log: a probe file,
    // rewritten until it is converted, shows the watch is live (and that a new file is picked up at all).
    const probePath = join(src, 'inbox', 'probe.html');
    let probeContent = '';
    await waitFor(
      'a new file to be converted while watching',
      async () => {
        const converted = await readFile(join(out, 'inbox', 'probe.html.md'), 'utf8').catch(() => '');
        if (converted !== '' && converted === expectedMarkdown('probe.html', Buffer.byteLength(probeContent))) return true;
        if (converted === '') {
          probeContent = `<p>probe ${Date.now()}</p>\n`;
          await writeFile(probePath, probeContent);
        }
        return false;
      },
      { timeoutMs: 30_000, intervalMs: 2_500 },
    );

    // Six chunks, 300 ms apart (about 1.5 s of writing): the size keeps changing, so the file must wait.
    const chunks = Array.from({ length: 6 }, (_, i) => `<p>chunk ${i} ${'.'.repeat(40 * (i + 1))}</p>\n`);
    const finalContent = Buffer.from(chunks.join(''), 'utf8');
    const slowPath = join(src, 'inbox', 'slow report.html');
    const handle = await open(slowPath, 'w');
    try {
      for (const [i, chunk] of chunks.entries()) {
        if (i > 0) await delay(300);
        await handle.write(chunk);
        await handle.sync();
      }
    } finally {
      await handle.close();
    }
    const slow = fileOf('inbox/slow report.html', finalContent);

    await waitFor('the slow file to be converted', async () => (await readFile(join(out, 'inbox', 'slow report.html.md'), 'utf8').catch(() => '')) !== '', {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    // A file written after the slow one was converted: once it is converted too, a second (wrong) report of the slow
    // file, which would settle before this one, has had its turn.
    const after = fileOf('inbox/after the slow one.html', '<p>written after</p>\n');
    await writeTree(src, [after]);
    await waitFor(
      'the file written after the slow one to be converted',
      async () => lastLineByPath(await readManifest(out)).get(after.path)?.status === 'converted',
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    const requests = server.requestsFor('slow report.html');
    expect(requests, 'requests for the slow file').toHaveLength(1);
    expect(requests[0]?.size).toBe(finalContent.length);
    expect(await readFile(join(out, 'inbox', 'slow report.html.md'), 'utf8')).toBe(expectedMarkdown('slow report.html', finalContent.length));
    await expectOutputs(out, slow);
    const slowLines = (await readManifest(out)).filter((line) => line.path === slow.path);
    expect(slowLines.map((line) => line.status)).toEqual(['converted']);
    expect(slowLines[0]?.size).toBe(finalContent.length);
    expect(await temporaryFiles(out)).toEqual([]);

    watch.kill('SIGTERM');
    const result = await watch.exited;
    expect(result.code, result.stderr).toBe(0);
  }, 120_000);
});
