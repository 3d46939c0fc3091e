/** Records and helpers shared by the store tests. */
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { DocumentState, ManifestEntry } from '../../src/store/output-store.js';

export function sha256Of(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export const SAMPLE_OUTPUTS = {
  markdown: '# Report\n\nQuarterly numbers.\n',
  json: { metadata: { title: 'Report', numPages: 2 }, links: ['https://example.com'] },
  pages: [
    { page: 1, markdown: '# Report' },
    { page: 2, markdown: 'Quarterly numbers.' },
  ],
  blocks: [{ page: 1, blocks: [{ type: 'heading', text: 'Report', bbox: [0, 0, 10, 2] }] }],
};

export function sampleState(overrides: Partial<DocumentState> = {}): DocumentState {
  const relativePath = overrides.relativePath ?? 'a/b/report.pdf';
  return {
    relativePath,
    source: `file:///data/${relativePath}`,
    changeToken: '1700000000000-1234',
    sha256: sha256Of(relativePath),
    optionsFingerprint: '0123456789abcdef',
    outputs: [`${relativePath}.md`, `${relativePath}.json`],
    numPages: 2,
    totalPages: 2,
    creditsUsed: 2,
    convertedAt: '2025-01-02T03:04:05.678Z',
    ...overrides,
  };
}

export function sampleEntry(overrides: Partial<ManifestEntry> = {}): ManifestEntry {
  return {
    path: 'a/b/report.pdf',
    source: 'file:///data/a/b/report.pdf',
    sha256: sha256Of('a/b/report.pdf'),
    size: 1234,
    status: 'converted',
    outputs: ['a/b/report.pdf.md'],
    attempts: 1,
    durationMs: 42,
    at: '2025-01-02T03:04:05.678Z',
    ...overrides,
  };
}

export function failedEntry(path: string): ManifestEntry {
  return sampleEntry({
    path,
    source: `file:///data/${path}`,
    status: 'failed',
    outputs: [],
    attempts: 5,
    error: { status: 503, code: 'PARSE_SERVER_ERROR', message: 'HTTP 503: unavailable' },
  });
}

/** Every file below `dir`, as '/'-separated paths relative to it, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of items) collected.push(item);
  return collected;
}
