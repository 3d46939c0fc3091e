/**
 * officeparser (npm) for the formats benchmark, kept outside docmill's dependencies: installed on first use with
 * `npm install --prefix <cache>/officeparser-<version>` and imported from there by absolute path, never from
 * the repository's node_modules (package.json does not name it).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runChild } from './child.js';

/** 7.8.0 is the newest release whose package says it runs on Node 18+; 8.x asks for Node 22.13. */
export const DEFAULT_OFFICEPARSER_VERSION = '7.8.0';

/** The part of officeparser's API the benchmark calls (OfficeConverter.convert to Markdown). */
interface OfficeParserModule {
  OfficeConverter: {
    convert(
      file: string,
      destination: 'md',
      config?: {
        parseConfig?: { extractAttachments?: boolean; ocr?: boolean; outputErrorToConsole?: boolean; fileType?: string };
        generatorConfig?: { includeImages?: boolean };
      },
    ): Promise<{ value: unknown }>;
  };
}

export interface OfficeParser {
  version: string;
  directory: string;
  /** The file's Markdown as a user of officeparser gets it (images left out, no OCR), or a thrown error. */
  toMarkdown(path: string, fileType?: string): Promise<string>;
}

/** Installs officeparser@version under cacheDir when it is not there yet, then loads it. */
export async function loadOfficeParser(cacheDir: string, version: string, log: (line: string) => void): Promise<OfficeParser> {
  const directory = join(cacheDir, `officeparser-${version}`);
  const packageDir = join(directory, 'node_modules', 'officeparser');
  if (!existsSync(join(packageDir, 'package.json'))) {
    await mkdir(directory, { recursive: true });
    const args = ['install', '--prefix', directory, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', `officeparser@${version}`];
    log(`installing officeparser@${version} into ${directory} (npm ${args.join(' ')})`);
    const run = await runChild('npm', args, {
      timeoutMs: 300_000,
      stdoutPath: join(directory, 'npm-install.stdout'),
      stderrPath: join(directory, 'npm-install.stderr'),
    });
    if (run.code !== 0 || !existsSync(join(packageDir, 'package.json'))) {
      throw new Error(`npm install officeparser@${version} failed (exit ${run.code ?? run.signal}): ${run.stderr.trim().slice(-600)}`);
    }
  }
  const pkg = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const module = (await import(pathToFileURL(join(packageDir, 'dist', 'index.mjs')).href)) as OfficeParserModule;
  return {
    version: pkg.version,
    directory,
    async toMarkdown(path, fileType) {
      const result = await module.OfficeConverter.convert(path, 'md', {
        parseConfig: { extractAttachments: false, ocr: false, outputErrorToConsole: false, ...(fileType ? { fileType } : {}) },
        generatorConfig: { includeImages: false },
      });
      return typeof result.value === 'string' ? result.value : String(result.value);
    },
  };
}
