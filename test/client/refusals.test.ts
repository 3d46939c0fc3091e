/**
 * Inputs the client refuses before sending anything: the server must see no request at all.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FileReadError,
  FileTooLargeError,
  InvalidSourceError,
  OptionsValidationError,
  UnsupportedFileError,
} from '../../src/backend/errors.js';
import { RemoteParseApi } from '../../src/client/remote-parse-api.js';
import { localFileSource, type UploadSource } from '../../src/backend/upload-source.js';
import { SUPPORTED_EXTENSIONS } from '../../src/contract/extensions.js';
import { MAX_FILE_BYTES } from '../../src/contract/limits.js';
import type { ParseOptionsInput } from '../../src/contract/options.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { startRecordingServer, type RecordingServer } from '../helpers/recording-server.js';
import { makeTempDir, rejectionOf, removeTempDir, writeRandomFile, writeSparseFile } from '../helpers/temp-files.js';

let dir: string;
let server: RecordingServer;
let api: RemoteParseApi;

beforeEach(async () => {
  dir = await makeTempDir();
  server = await startRecordingServer([200]);
  api = new RemoteParseApi({ apiUrl: server.url, apiKey: 'test-key', clock: new FakeClock() });
});

afterEach(async () => {
  await api.close();
  await server.close();
  await removeTempDir(dir);
});

function expectNothingSent(): void {
  expect(server.arrivals).toBe(0);
  expect(server.requests).toHaveLength(0);
}

describe('file size', () => {
  it('refuses a 51 MB file with FILE_TOO_LARGE and sends nothing', async () => {
    const size = 51 * 1024 * 1024;
    const path = await writeSparseFile(dir, 'huge.pdf', size);
    const error = await rejectionOf(api.parseFile(path, undefined));

    expect(error).toBeInstanceOf(FileTooLargeError);
    const tooLarge = error as FileTooLargeError;
    expect(tooLarge.code).toBe('FILE_TOO_LARGE');
    expect(tooLarge.sentNothing).toBe(true);
    expect(tooLarge.size).toBe(size);
    expect(tooLarge.limit).toBe(MAX_FILE_BYTES);
    expect(tooLarge.fileName).toBe('huge.pdf');
    expect(tooLarge.message).toContain('huge.pdf');
    expectNothingSent();
  });

  it('refuses a file one byte over the limit', async () => {
    const path = await writeSparseFile(dir, 'edge.csv', MAX_FILE_BYTES + 1);
    const error = await rejectionOf(api.parseFile(path, undefined));
    expect(error).toBeInstanceOf(FileTooLargeError);
    expectNothingSent();
  });

  it('sends a file of exactly the limit whole', async () => {
    const path = await writeSparseFile(dir, 'limit.pdf', MAX_FILE_BYTES);
    const result = await api.parseFile(path, undefined);
    expect(result.attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
    const filePart = server.requests[0]?.parts.find((part) => part.name === 'file');
    expect(filePart?.size).toBe(MAX_FILE_BYTES);
  });
});

describe('file type', () => {
  it.each([
    ['notes.txt', 'extension ".txt" is not supported'],
    ['archive.tar.gz', 'extension ".gz" is not supported'],
    ['README', 'the file has no extension'],
    ['Makefile.', 'extension "." is not supported'],
  ])('refuses %s with FILE_UNSUPPORTED, listing the supported extensions', async (name, reason) => {
    const file = await writeRandomFile(dir, name, 100);
    const error = await rejectionOf(api.parseFile(file.path, undefined));

    expect(error).toBeInstanceOf(UnsupportedFileError);
    const unsupported = error as UnsupportedFileError;
    expect(unsupported.code).toBe('FILE_UNSUPPORTED');
    expect(unsupported.sentNothing).toBe(true);
    expect(unsupported.message).toContain(name);
    expect(unsupported.message).toContain(reason);
    for (const extension of ['.pdf', '.docx', '.csv', '.html', '.epub', '.xlsx']) {
      expect(unsupported.message).toContain(extension);
    }
    for (const extension of SUPPORTED_EXTENSIONS) expect(unsupported.message).toContain(extension);
    expectNothingSent();
  });

  it('refuses an unsupported type before looking at the size', async () => {
    const path = await writeSparseFile(dir, 'huge.txt', 51 * 1024 * 1024);
    const error = await rejectionOf(api.parseFile(path, undefined));
    expect(error).toBeInstanceOf(UnsupportedFileError);
    expectNothingSent();
  });
});

describe('options', () => {
  it.each<[string, ParseOptionsInput, string]>([
    ['a timeout over 300000', { timeout: 999_999 }, 'timeout'],
    ['a non-integer timeout', { timeout: 1.5 }, 'timeout'],
    ['a misspelt key', { onlyMainContnet: false } as unknown as ParseOptionsInput, 'onlyMainContnet'],
    ['maxPages 0', { parsers: [{ type: 'pdf', maxPages: 0 }] }, 'parsers.0.maxPages'],
    ['an unsupported format', { formats: [{ type: 'screenshot' }] } as unknown as ParseOptionsInput, 'formats.0.type'],
    ['json written as a name alone', { formats: ['markdown', 'json'] } as unknown as ParseOptionsInput, 'formats.1'],
    ['an unknown proxy', { proxy: 'stealth' } as unknown as ParseOptionsInput, 'proxy'],
    ['an overlong audit username', { auditMetadata: { username: 'x'.repeat(1025) } }, 'auditMetadata.username'],
  ])('refuses %s with PARSE_INVALID_OPTIONS naming the field', async (_label, options, path) => {
    const file = await writeRandomFile(dir, 'ok.pdf', 100);
    const error = await rejectionOf(api.parseFile(file.path, options));

    expect(error).toBeInstanceOf(OptionsValidationError);
    const invalid = error as OptionsValidationError;
    expect(invalid.code).toBe('PARSE_INVALID_OPTIONS');
    expect(invalid.sentNothing).toBe(true);
    expect(invalid.details.map((detail) => detail.path)).toContain(path);
    expect(invalid.message).toContain(path);
    expectNothingSent();
  });

  it('names `timeout` for {timeout: 999999} and says what the maximum is', async () => {
    const file = await writeRandomFile(dir, 'ok.pdf', 100);
    const error = (await rejectionOf(api.parseFile(file.path, { timeout: 999_999 }))) as OptionsValidationError;
    expect(error.details).toEqual([{ path: 'timeout', message: expect.stringContaining('300000') as unknown }]);
    expectNothingSent();
  });
});

describe('unreadable files', () => {
  it('a missing file gives FILE_UNREADABLE naming the path', async () => {
    const path = join(dir, 'does-not-exist.pdf');
    const error = await rejectionOf(api.parseFile(path, undefined));

    expect(error).toBeInstanceOf(FileReadError);
    expect((error as FileReadError).code).toBe('FILE_UNREADABLE');
    expect((error as FileReadError).message).toContain(path);
    expect((error as FileReadError).message).toContain('no such file');
    expectNothingSent();
  });

  it('a URL gives FILE_UNREADABLE saying a local file is read, not a URL', async () => {
    const error = await rejectionOf(api.parseFile('https://example.com/report.pdf', undefined));
    expect(error).toBeInstanceOf(FileReadError);
    expect((error as FileReadError).message).toBe('https://example.com/report.pdf: no such file: a local file is read here, not a URL (download it first)');
    expectNothingSent();
  });

  it('a directory gives FILE_UNREADABLE', async () => {
    const path = join(dir, 'folder.pdf');
    await mkdir(path);
    const error = await rejectionOf(api.parseFile(path, undefined));

    expect(error).toBeInstanceOf(FileReadError);
    expect((error as FileReadError).code).toBe('FILE_UNREADABLE');
    expect((error as FileReadError).message).toContain(path);
    expect((error as FileReadError).message).toContain('not a regular file');
    expectNothingSent();
  });
});

describe('what is passed as the file', () => {
  it.each<[string, (path: string) => unknown, string]>([
    ['the promise of localFileSource without its await', (path) => localFileSource(path), 'await localFileSource(path)'],
    ['a path as a string', (path) => path, 'a string'],
    ['null', () => null, 'null'],
    ['an object without open()', () => ({ fileName: 'a.pdf', size: 10 }), 'a.pdf: it has no open()'],
  ])('refuses %s with FILE_SOURCE_INVALID saying what it got, and sends nothing', async (_label, make, reason) => {
    const file = await writeRandomFile(dir, 'ok.pdf', 100);
    const source = make(file.path) as UploadSource;
    const error = await rejectionOf(api.parse(source, undefined));
    // The promise handed over by mistake settles before the folder goes.
    if (source instanceof Promise) await source;

    expect(error).toBeInstanceOf(InvalidSourceError);
    expect((error as InvalidSourceError).code).toBe('FILE_SOURCE_INVALID');
    expect((error as InvalidSourceError).message).toContain(reason);
    expectNothingSent();
  });

  it('refuses a path that is not a string with FILE_SOURCE_INVALID, not as an unreadable file', async () => {
    const error = await rejectionOf(api.parseFile(123 as unknown as string, undefined));
    expect(error).toBeInstanceOf(InvalidSourceError);
    expect((error as InvalidSourceError).message).toBe('the path of the file to parse is a number, not a string');
    expectNothingSent();
  });
});
