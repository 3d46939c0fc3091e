/** docs/troubleshooting.md's list of error codes is the code's list: every code docmill can raise, and nothing else. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_ERROR_CODES, ERROR_CODES } from '../../src/errors/codes.js';

const PAGE = readFileSync(new URL('../../docs/troubleshooting.md', import.meta.url), 'utf8');

function section(title: string): string {
  const start = PAGE.indexOf(`## ${title}\n`);
  const end = PAGE.indexOf('\n## ', start + 1);
  return PAGE.slice(start, end === -1 ? undefined : end);
}

describe('docs/troubleshooting.md "Error codes"', () => {
  it('lists every error code of src/errors/codes.ts and no other', () => {
    const listed = new Set([...section('Error codes').matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|USAGE)`/g)].map((match) => match[1]));
    const engineCodes = DOCUMENT_ERROR_CODES.map((code) => `ENGINE_${code}`);
    // ENGINE_<document code> is written once as a pattern; the document codes themselves are listed.
    const expected = new Set([...ERROR_CODES.filter((code) => !engineCodes.includes(code)), ...DOCUMENT_ERROR_CODES]);
    expect([...listed].filter((code) => !expected.has(code as never)).sort()).toEqual([]);
    expect([...expected].filter((code) => !listed.has(code)).sort()).toEqual([]);
  });
});
