/** Names that are not UTF-8: their text (what outputs and the manifest are named by) and their `file:` URIs. */
import { describe, expect, it } from 'vitest';
import { bytesText, childPath, entryName, fileUriOf, fsPathOfFileUri } from '../../src/sources/byte-paths.js';

const bytes = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))));

describe('bytesText', () => {
  it('keeps UTF-8 as it is and writes each other byte %XX, characters around it whole', () => {
    expect(bytesText(bytes('Résumé 日本 🙂.pdf'))).toBe('Résumé 日本 🙂.pdf');
    expect(bytesText(bytes('R', [0xe9], 'sum', [0xe9], '.pdf'))).toBe('R%E9sum%E9.pdf');
    expect(bytesText(bytes('é', [0xff], '日'))).toBe('é%FF日');
    // An overlong '/', a surrogate, a character cut at the end: none is a UTF-8 character.
    expect(bytesText(bytes([0xc0, 0xaf], 'a'))).toBe('%C0%AFa');
    expect(bytesText(bytes([0xed, 0xa0, 0x80]))).toBe('%ED%A0%80');
    expect(bytesText(bytes('a', [0xe6, 0x97]))).toBe('a%E6%97');
  });

  it('tells two names apart that Node reads alike', () => {
    const ff = entryName(bytes('bad', [0xff], '.pdf'));
    const fe = entryName(bytes('bad', [0xfe], '.pdf'));
    expect(ff.text).not.toBe(fe.text);
    expect(ff.bytes).toBeDefined();
    expect(entryName(bytes('plain.pdf'))).toEqual({ text: 'plain.pdf' });
  });
});

describe('paths and URIs', () => {
  it('keeps a path text until a name is not UTF-8, then bytes, and gets the same bytes back from its URI', () => {
    const folder = childPath('/srv/in', entryName(bytes('Dossier ', [0xe9])));
    const file = childPath(folder, entryName(bytes('x #1%.pdf')));
    expect(childPath('/srv/in/', entryName(bytes('a.pdf')))).toBe('/srv/in/a.pdf');
    expect(Buffer.isBuffer(file)).toBe(true);
    const uri = fileUriOf(file);
    expect(uri).toBe('file:///srv/in/Dossier%20%E9/x%20%231%25.pdf');
    expect(fsPathOfFileUri(uri)).toEqual(bytes('/srv/in/Dossier ', [0xe9], '/x #1%.pdf'));
    expect(fsPathOfFileUri(fileUriOf('/srv/in/Résumé #2.pdf'))).toBe('/srv/in/Résumé #2.pdf');
  });
});
