/**
 * Error catalogue and retry statuses (spec parse-api-v2.md: "Errors", "Retry rules"), supported file extensions
 * (spec: "Parse request", part `file`) and the file size limit (spec: "Limits").
 */
import { describe, it, expect } from 'vitest';
import path from 'node:path';
import {
  CONTENT_TYPE_BY_EXTENSION,
  ERROR_CATALOGUE,
  ERROR_MESSAGES,
  MAX_FILE_BYTES,
  RETRYABLE_STATUSES,
  SUPPORTED_EXTENSIONS,
  catalogueEntryFor,
  contentTypeFor,
  extensionOf,
  isRetryableStatus,
  isSupportedExtension,
} from '../../src/contract/index.js';

/** Retry rule 2. */
const RETRIED = [408, 429, 500, 502, 503, 504];

/** The spec's "General errors" table: status, typical message, Retryable column. */
const SPEC_GENERAL_ERRORS: ReadonlyArray<readonly [number, string, 'yes' | 'no' | 'sometimes']> = [
  [400, 'Bad Request', 'no'],
  [400, 'Invalid URL', 'no'],
  [401, 'Unauthorized: Invalid token', 'no'],
  [402, 'Payment Required: Insufficient credits', 'no'],
  [403, 'Forbidden', 'no'],
  [403, 'SCRAPE_PROMPT_INJECTION_DETECTED', 'no'],
  [404, 'Not Found', 'no'],
  [408, 'Request Timeout', 'yes'],
  [409, 'Conflict', 'no'],
  [413, 'Payload Too Large', 'no'],
  [422, 'Unprocessable Entity', 'sometimes'],
  [429, 'Rate limit exceeded', 'yes'],
  [429, 'Concurrency limit reached', 'yes'],
  [500, 'Internal Server Error', 'yes'],
  [502, 'Bad Gateway', 'yes'],
  [503, 'Service Unavailable', 'yes'],
  [504, 'Gateway Timeout', 'yes'],
];

function specRetryable(status: number): Set<string> {
  return new Set(SPEC_GENERAL_ERRORS.filter(([code]) => code === status).map(([, , retryable]) => retryable));
}

describe('retryable statuses', () => {
  it('among 400..599 exactly 408, 429, 500, 502, 503 and 504 are retried', () => {
    const statuses = Array.from({ length: 200 }, (_, index) => 400 + index);
    expect(statuses.filter((status) => isRetryableStatus(status))).toStrictEqual(RETRIED);
    expect([...RETRYABLE_STATUSES].sort((a, b) => a - b)).toStrictEqual(RETRIED);
  });

  it.each([200, 201, 204, 301, 304, 399, 600, 0, -1, 408.5])('does not retry %d', (status) => {
    expect(isRetryableStatus(status)).toBe(false);
  });

  it('422 is "sometimes" in the catalogue and is not retried', () => {
    expect(catalogueEntryFor(422)?.retryable).toBe('sometimes');
    expect(isRetryableStatus(422)).toBe(false);
  });
});

describe('error catalogue', () => {
  it.each(ERROR_CATALOGUE.map((entry) => [entry.status, entry.message, entry.retryable] as const))(
    '%d %s agrees with the Retryable column of the spec (%s)',
    (status, _message, retryable) => {
      const column = specRetryable(status);
      expect(column.size).toBe(1);
      expect(column.has(retryable)).toBe(true);
    },
  );

  it('lists every status of the spec table', () => {
    const listed = new Set(ERROR_CATALOGUE.map((entry) => entry.status));
    for (const [status] of SPEC_GENERAL_ERRORS) expect(listed.has(status)).toBe(true);
  });

  it("entries marked 'yes' are exactly the retried statuses", () => {
    const yes = new Set(ERROR_CATALOGUE.filter((entry) => entry.retryable === 'yes').map((entry) => entry.status));
    expect([...yes].sort((a, b) => a - b)).toStrictEqual(RETRIED);
    for (const entry of ERROR_CATALOGUE) expect(isRetryableStatus(entry.status)).toBe(entry.retryable === 'yes');
  });

  it('both 429 messages are listed and retryable', () => {
    const messages = ERROR_CATALOGUE.filter((entry) => entry.status === 429).map((entry) => entry.message);
    expect(messages).toEqual(expect.arrayContaining(['Rate limit exceeded', 'Concurrency limit reached']));
  });

  it('carries the parse-specific codes for 400 and 500', () => {
    expect(catalogueEntryFor(400)?.apiCode).toBe('BAD_REQUEST');
    expect(catalogueEntryFor(500)?.apiCode).toBe('UNKNOWN_ERROR');
  });

  it('gives undefined for a status it does not list', () => {
    expect(catalogueEntryFor(418)).toBeUndefined();
    expect(catalogueEntryFor(200)).toBeUndefined();
  });

  it('uses the messages of the parse-specific bodies', () => {
    expect(ERROR_MESSAGES).toMatchObject({
      invalidMultipart: 'Invalid multipart form-data request.',
      paymentRequired: 'Payment required to access this resource.',
      rateLimited: 'Request rate limit exceeded. Please wait and try again later.',
      unknown: 'An unexpected error occurred on the server.',
      unauthorized: 'Unauthorized: Invalid token',
      forbidden: 'Forbidden',
    });
  });
});

describe('supported extensions', () => {
  /** The spec's list, in its order, with the registered media type of each. */
  const SPEC_EXTENSIONS: ReadonlyArray<readonly [string, string]> = [
    ['.html', 'text/html'],
    ['.htm', 'text/html'],
    ['.xhtml', 'application/xhtml+xml'],
    ['.pdf', 'application/pdf'],
    ['.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['.doc', 'application/msword'],
    ['.docm', 'application/vnd.ms-word.document.macroEnabled.12'],
    ['.odt', 'application/vnd.oasis.opendocument.text'],
    ['.ods', 'application/vnd.oasis.opendocument.spreadsheet'],
    ['.odp', 'application/vnd.oasis.opendocument.presentation'],
    ['.rtf', 'application/rtf'],
    ['.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['.xls', 'application/vnd.ms-excel'],
    ['.xlsm', 'application/vnd.ms-excel.sheet.macroEnabled.12'],
    ['.xlsb', 'application/vnd.ms-excel.sheet.binary.macroEnabled.12'],
    ['.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    ['.ppt', 'application/vnd.ms-powerpoint'],
    ['.pptm', 'application/vnd.ms-powerpoint.presentation.macroEnabled.12'],
    ['.epub', 'application/epub+zip'],
    ['.csv', 'text/csv'],
  ];

  it('are exactly the extensions of the spec list', () => {
    expect([...SUPPORTED_EXTENSIONS].sort()).toStrictEqual(SPEC_EXTENSIONS.map(([extension]) => extension).sort());
    expect(Object.keys(CONTENT_TYPE_BY_EXTENSION).sort()).toStrictEqual([...SUPPORTED_EXTENSIONS].sort());
  });

  it.each(SPEC_EXTENSIONS)('%s is supported as %s', (extension, contentType) => {
    expect(isSupportedExtension(extension)).toBe(true);
    expect(extensionOf(`report${extension}`)).toBe(extension);
    expect(contentTypeFor(`report${extension}`)).toBe(contentType);
    expect(contentTypeFor(`dir/sub/report${extension}`)).toBe(contentType);
  });

  it.each(SPEC_EXTENSIONS)('%s is recognised in upper case', (extension, contentType) => {
    const name = `REPORT${extension.toUpperCase()}`;
    expect(extensionOf(name)).toBe(extension);
    expect(contentTypeFor(name)).toBe(contentType);
  });

  it.each([
    ['Budget.XlSx', '.xlsx', CONTENT_TYPE_BY_EXTENSION['.xlsx']],
    ['archive.2024.v2.pdf', '.pdf', 'application/pdf'],
    ['data.csv.pdf', '.pdf', 'application/pdf'],
    ['report.pdf.zip', '.zip', undefined],
    ['..pdf', '.pdf', 'application/pdf'],
    ['.hidden.docx', '.docx', CONTENT_TYPE_BY_EXTENSION['.docx']],
    ['C:\\Users\\me\\Minutes.DOCX', '.docx', CONTENT_TYPE_BY_EXTENSION['.docx']],
    ['/tmp/v1.2/notes.html', '.html', 'text/html'],
  ])('%s has the extension %s', (name, extension, contentType) => {
    expect(extensionOf(name)).toBe(extension);
    expect(contentTypeFor(name)).toBe(contentType);
  });

  it.each(['README', 'Makefile', 'dir.d/file', 'C:\\v1.2\\file', ''])('%j has no extension', (name) => {
    expect(extensionOf(name)).toBe('');
    expect(contentTypeFor(name)).toBeUndefined();
  });

  it.each(['.pdf', '.csv', 'dir/.html', 'C:\\docs\\.docx', '.gitignore'])('the dotfile %s has no extension', (name) => {
    expect(extensionOf(name)).toBe('');
    expect(contentTypeFor(name)).toBeUndefined();
  });

  it.each(['image.png', 'notes.txt', 'page.md', 'book.mobi', 'file.toString', 'file.__proto__', 'file.constructor'])(
    '%s is not supported',
    (name) => {
      expect(contentTypeFor(name)).toBeUndefined();
    },
  );

  it.each(['report.pdf', 'REPORT.PDF', 'a.b.c.XLSB', '.env', 'README', 'dir.d/file', '..pdf', 'file.'])(
    'extensionOf(%j) agrees with path.extname lower-cased',
    (name) => {
      expect(extensionOf(name)).toBe(path.extname(name).toLowerCase());
    },
  );

  it.each(['.PDF', 'pdf', 'toString', '__proto__', ''])('isSupportedExtension(%j) is false', (extension) => {
    expect(isSupportedExtension(extension)).toBe(false);
  });
});

describe('file size limit', () => {
  it('MAX_FILE_BYTES is 50 MiB', () => {
    expect(MAX_FILE_BYTES).toBe(50 * 1024 * 1024);
    expect(MAX_FILE_BYTES).toBe(52_428_800);
  });
});
