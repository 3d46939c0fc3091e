/**
 * The five damaged files a mutation campaign found mishandled (test/fixtures/malformed/README.md), in one batch on
 * the embedded local engine: each ends in one attempt, failed with its precise code and message, and the manifest
 * says what it cost. Before: two workbooks hung SheetJS and were tried 20 times each, two decks were a retryable
 * 500 UNKNOWN_ERROR with an XML parser's raw text, and a spreadsheet converted to nothing without a word.
 */
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/index.js';
import type { ManifestEntry } from '../../../src/store/output-store.js';
import { parseManifestLine } from '../../../src/store/records.js';
import { deleteQueueKeys, SHARED_REDIS_URL } from '../../helpers/docmill-cli.js';
import { makeTempDir, removeTempDir } from '../../helpers/temp-files.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/malformed/', import.meta.url));

const EXPECTED: Record<string, string> = {
  'm0055_bitflip_empty.xlsx':
    'm0055_bitflip_empty.xlsx: the file is damaged or truncated: it is an Excel workbook (.xlsx) whose part [Content_Types].xml cannot be inflated (invalid literal/lengths set)',
  'm0164_overwrite_2023-half-year-analyses-by-segment.xlsx':
    'm0164_overwrite_2023-half-year-analyses-by-segment.xlsx: the file is damaged or truncated: it is an Excel workbook (.xlsx) whose part xl/sharedStrings.xml cannot be inflated (invalid distance too far back)',
  'm0677_trunc_xml_SimpleMacro.pptm':
    'm0677_trunc_xml_SimpleMacro.pptm: the file is damaged: it is a PowerPoint presentation (.pptx) whose part ppt/slides/_rels/slide1.xml.rels is not well-formed XML (line 2)',
  'm0703_trunc_xml_PPTWithAttachments.pptm':
    'm0703_trunc_xml_PPTWithAttachments.pptm: the file is damaged: it is a PowerPoint presentation (.pptx) whose part ppt/slides/_rels/slide1.xml.rels is not well-formed XML (line 2)',
  'm0672_trunc_xml_merged_cells.ods':
    'm0672_trunc_xml_merged_cells.ods: the file is damaged: it is an OpenDocument spreadsheet (.ods) whose part content.xml is not well-formed XML (line 2)',
};

const queue = `malformed-${randomUUID()}`;
let dir: string | undefined;

afterAll(async () => {
  await deleteQueueKeys(queue);
  await removeTempDir(dir);
});

describe('the five damaged files of the campaign, in one batch', () => {
  it('each fails once, at once, with CORRUPT_DOCUMENT naming the part; the manifest holds its whole cost', async () => {
    dir = await makeTempDir();
    const src = join(dir, 'src');
    const out = join(dir, 'out');
    await mkdir(src);
    for (const name of Object.keys(EXPECTED)) await copyFile(join(FIXTURES, name), join(src, name));

    const summary = await run({ source: src, out, redisUrl: SHARED_REDIS_URL, queue, engineThreads: 2, concurrency: 4 }).done;

    expect(summary.outcome).toBe('completed');
    expect(summary.counts).toMatchObject({ converted: 0, failed: 5, requests: 5 });
    const manifest = (await readFile(join(out, '_docmill', 'manifest.jsonl'), 'utf8'))
      .split('\n')
      .map(parseManifestLine)
      .filter((entry): entry is ManifestEntry => entry !== undefined);
    expect(manifest.map((entry) => entry.path).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const entry of manifest) {
      expect(entry, entry.path).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: { status: 400, code: 'CORRUPT_DOCUMENT', message: EXPECTED[entry.path] },
      });
      // One start of one attempt: the whole cost is the last attempt's.
      expect(entry.totalDurationMs).toBe(entry.durationMs);
      expect(entry.lastAttemptMs).toBeLessThanOrEqual(entry.durationMs);
    }
  }, 120_000);
});
