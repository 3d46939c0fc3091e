/**
 * Shared pieces of the pipeline tests: source trees on disk, and checks of what a run left in its output folder.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { FsStore } from '../../src/store/fs-store.js';
import type { DocumentState } from '../../src/store/output-store.js';
import { listFiles, readJsonLines, type ManifestLine } from '../helpers/docmill-cli.js';
import { expectedMarkdown } from '../helpers/fault-parse-server.js';

export interface TreeFile {
  /** '/'-separated path below the source root. */
  path: string;
  content: Buffer;
}

export function fileOf(path: string, content: string | Buffer): TreeFile {
  return { path, content: typeof content === 'string' ? Buffer.from(content, 'utf8') : content };
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

export async function writeTree(root: string, files: readonly TreeFile[]): Promise<void> {
  for (const file of files) {
    const path = join(root, ...file.path.split('/'));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content);
  }
}

/** `count` small HTML files with distinct content, `doc-000.html`... (file names are unique: faults match them). */
export function manyFiles(count: number, folder = 'batch'): TreeFile[] {
  return Array.from({ length: count }, (_, i) => {
    const name = `doc-${String(i).padStart(3, '0')}.html`;
    return fileOf(`${folder}/${name}`, `<html><body><h1>Document ${i}</h1><p>${'x'.repeat(i)}</p></body></html>\n`);
  });
}

/** Files below `out` whose name marks an interrupted atomic write. */
export async function temporaryFiles(out: string): Promise<string[]> {
  return (await listFiles(out)).filter((path) => baseName(path).includes('.docmill-tmp-'));
}

/** The state an output folder records for a source path (what a rerun skips by), read as docmill reads it. */
export async function recordedState(out: string, relativePath: string): Promise<DocumentState | undefined> {
  const store = new FsStore(out);
  try {
    return await store.readState(relativePath);
  } finally {
    await store.close();
  }
}

export async function readManifest(out: string): Promise<ManifestLine[]> {
  return readJsonLines(join(out, '_docmill', 'manifest.jsonl'));
}

export async function readFailures(out: string): Promise<ManifestLine[]> {
  return readJsonLines(join(out, '_docmill', 'failures.jsonl'));
}

/**
 * `<path>.md` holds what the server sent for `nameSent` (the uploaded file's name, normally the file's own) and
 * `<path>.json` the rest of `data`.
 */
export async function expectOutputs(out: string, file: TreeFile, nameSent = baseName(file.path)): Promise<void> {
  const base = join(out, ...file.path.split('/'));
  await expect(readFile(`${base}.md`, 'utf8'), `${file.path}.md`).resolves.toBe(expectedMarkdown(nameSent, file.content.length));
  const json = JSON.parse(await readFile(`${base}.json`, 'utf8')) as unknown;
  expect(json, `${file.path}.json`).toEqual({ metadata: { numPages: 1, creditsUsed: 1 } });
}

/** The last manifest line for each path. */
export function lastLineByPath(lines: readonly ManifestLine[]): Map<string, ManifestLine> {
  const byPath = new Map<string, ManifestLine>();
  for (const line of lines) byPath.set(line.path, line);
  return byPath;
}

/** Checks a `converted` manifest line against the file it describes. */
export function expectConvertedLine(line: ManifestLine | undefined, file: TreeFile): void {
  expect(line, `manifest line for ${file.path}`).toBeDefined();
  expect(line).toMatchObject({
    path: file.path,
    sha256: sha256(file.content),
    size: file.content.length,
    status: 'converted',
    outputs: [`${file.path}.md`, `${file.path}.json`],
    numPages: 1,
    creditsUsed: 1,
  });
  expect(line?.source).toMatch(/^file:\/\//);
  expect(line?.attempts).toBeGreaterThanOrEqual(1);
  expect(typeof line?.durationMs).toBe('number');
  expect(line?.durationMs).toBeGreaterThanOrEqual(0);
}
