/**
 * safeRelativePath: hostile and unusual source paths (local paths and S3 keys) always map to a relative path
 * that stays below the output root, deterministically.
 */
import { resolve, sep } from 'node:path';
import { describe, it, expect } from 'vitest';
import { isInside, resolveInside } from '../../src/store/inside-root.js';
import { MAX_SAFE_PATH_BYTES, MAX_SEGMENT_BYTES, safeRelativePath } from '../../src/store/safe-path.js';
import { rejectionOf } from '../helpers/temp-files.js';

const ROOT = resolve('/srv/docmill-out');

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Checks every property a safe path must have, whatever the input. */
function expectSafe(safe: string): void {
  expect(safe).not.toBe('');
  expect(safe.startsWith('/')).toBe(false);
  expect(safe).not.toMatch(/\\/);
  // eslint-disable-next-line no-control-regex -- looking for control characters
  expect(safe).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  const segments = safe.split('/');
  for (const segment of segments) {
    expect(segment).not.toBe('');
    expect(segment).not.toBe('.');
    expect(segment).not.toBe('..');
    expect(bytes(segment)).toBeLessThanOrEqual(MAX_SEGMENT_BYTES);
  }
  expect(segments[0]!.toLowerCase()).not.toBe('_docmill');
  expect(bytes(safe)).toBeLessThanOrEqual(MAX_SAFE_PATH_BYTES);
  expect(isInside(ROOT, resolve(ROOT, safe))).toBe(true);
}

describe('safeRelativePath', () => {
  const table: Array<[input: string, expected: string]> = [
    ['a/b/report.pdf', 'a/b/report.pdf'],
    ['../../etc/passwd', '__/__/etc/passwd'],
    ['/abs/x.pdf', 'abs/x.pdf'],
    ['///abs//x.pdf', 'abs/x.pdf'],
    ['a/../../b.pdf', 'a/__/__/b.pdf'],
    ['a/./b.pdf', 'a/b.pdf'],
    ['C:\\win\\x.pdf', 'win/x.pdf'],
    ['c:/win/x.pdf', 'win/x.pdf'],
    ['C:x.pdf', 'x.pdf'],
    ['a\\..\\..\\b.pdf', 'a/__/__/b.pdf'],
    ['\\\\server\\share\\x.pdf', 'server/share/x.pdf'],
    ['a/.../b.pdf', 'a/___/b.pdf'],
    ['a/..', 'a/__'],
    ['__', '__'],
    ['na\u0000me.pdf', 'na_me.pdf'],
    ['dir\u0000/../x.pdf', 'dir_/__/x.pdf'],
    ['tab\there\r\n.pdf', 'tab_here__.pdf'],
    ['bell\u0007\u009b.pdf', 'bell__.pdf'],
    ['lone\uD800surrogate.pdf', 'lone_surrogate.pdf'],
    ['_docmill/manifest.jsonl', '_docmill_/manifest.jsonl'],
    ['_docmill/state/a.pdf.json', '_docmill_/state/a.pdf.json'],
    ['_DocMill/x.pdf', '_DocMill_/x.pdf'],
    ['_docmill_/x.pdf', '_docmill__/x.pdf'],
    ['/_docmill/x.pdf', '_docmill_/x.pdf'],
    ['a/_docmill/x.pdf', 'a/_docmill/x.pdf'],
    ['_docmillish/x.pdf', '_docmillish/x.pdf'],
    ['.hidden/.env.pdf', '.hidden/.env.pdf'],
    ['répertoire/日本語 ファイル.pdf', 'répertoire/日本語 ファイル.pdf'],
    ['emoji/😀.pdf', 'emoji/😀.pdf'],
  ];

  it.each(table)('%j → %j', (input, expected) => {
    const safe = safeRelativePath(input);
    expect(safe).toBe(expected);
    expectSafe(safe);
  });

  it.each(['', '.', '..', '/', '\\', './', '../..', '.\\.', '...', 'C:', 'C:\\', '//./'])(
    'refuses %j, which leaves nothing, with STORE_UNSAFE_PATH',
    async (input) => {
      const error = await rejectionOf(Promise.resolve().then(() => safeRelativePath(input)));
      expect(error).toMatchObject({ code: 'STORE_UNSAFE_PATH', name: 'UnsafePathError' });
    },
  );

  it('cuts a 600-byte Unicode name to 200 bytes, keeping its extension and adding a hash', () => {
    const name = `${'é'.repeat(150)}${'日'.repeat(100)}.pdf`;
    expect(bytes(name)).toBe(604);
    const safe = safeRelativePath(`docs/${name}`);
    expectSafe(safe);
    const [folder, fileName] = safe.split('/');
    expect(folder).toBe('docs');
    expect(bytes(fileName!)).toBeLessThanOrEqual(MAX_SEGMENT_BYTES);
    expect(bytes(fileName!)).toBeGreaterThan(MAX_SEGMENT_BYTES - 4);
    expect(fileName).toMatch(/^é+~[0-9a-f]{12}\.pdf$/);
    // No character is split: the name round-trips through UTF-8 unchanged.
    expect(Buffer.from(fileName!, 'utf8').toString('utf8')).toBe(fileName);
  });

  it('keeps two long names that share their first 200 bytes apart', () => {
    const stem = 'x'.repeat(300);
    const first = safeRelativePath(`${stem}-first.pdf`);
    const second = safeRelativePath(`${stem}-second.pdf`);
    expect(first).not.toBe(second);
    expect(first.endsWith('.pdf')).toBe(true);
    expectSafe(first);
    expectSafe(second);
  });

  it('cuts a multi-byte name without splitting a four-byte character', () => {
    const safe = safeRelativePath(`${'😀'.repeat(80)}.pdf`);
    expectSafe(safe);
    expect(safe).toMatch(/^(😀)+~[0-9a-f]{12}\.pdf$/u);
  });

  it('bounds a very deep path, keeping the file name and the leading folders', () => {
    const folders = Array.from({ length: 100 }, (_, index) => `folder-${String(index).padStart(2, "0")}`);
    const deep = [...folders, 'report.pdf'].join('/');
    const safe = safeRelativePath(deep);
    expectSafe(safe);
    expect(safe.startsWith('folder-00/folder-01/')).toBe(true);
    expect(safe).toMatch(/\/~[0-9a-f]{12}\/report\.pdf$/);
    const otherTail = [...folders.slice(0, -1), 'folder-xx', 'report.pdf'].join('/');
    expect(safeRelativePath(otherTail)).not.toBe(safe);
  });

  it('is deterministic', () => {
    const inputs = ['../x.pdf', `${'ü'.repeat(400)}.docx`, '_docmill/a', 'a\\b\u0000c'];
    for (const input of inputs) expect(safeRelativePath(input)).toBe(safeRelativePath(input));
  });

  it('keeps every result of a hostile corpus inside the root', () => {
    const pieces = ['..', '.', '', '/', '\\', 'C:', '_docmill', '\u0000', '...', 'a', '😀'.repeat(60), ' '];
    let checked = 0;
    for (const a of pieces) {
      for (const b of pieces) {
        for (const c of pieces) {
          const input = `${a}/${b}\\${c}/x.pdf`;
          expectSafe(safeRelativePath(input));
          checked += 1;
        }
      }
    }
    expect(checked).toBe(pieces.length ** 3);
  });
});

describe('resolveInside', () => {
  it('resolves a key below the root', () => {
    expect(resolveInside(ROOT, 'a/b.pdf.md')).toBe(`${ROOT}${sep}a${sep}b.pdf.md`);
  });

  it.each(['../x', 'a/../../x', '/etc/passwd', '.', ''])('refuses %j with STORE_PATH_ESCAPE', (key) => {
    expect(() => resolveInside(ROOT, key)).toThrow(expect.objectContaining({ code: 'STORE_PATH_ESCAPE' }));
  });

  it('accepts names that merely start with two dots', () => {
    expect(isInside(ROOT, resolve(ROOT, '..foo'))).toBe(true);
  });
});
