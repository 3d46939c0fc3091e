import iconv from 'iconv-lite';
import { describe, expect, it, vi } from 'vitest';
import { chardetHeld } from '../../../src/engine/bytes/chardet-loader.js';
import { decodeText, looksLikeText } from '../../../src/engine/bytes/text.js';
import { corpusBytes } from '../sheets/helpers.js';

const SAMPLE = 'name,price\nCafé crème,3 €\n“Quoted”,5\n';

function utf16be(text: string): Buffer {
  return iconv.encode(text, 'utf-16be');
}

describe('decodeText', () => {
  it('UTF-8 with a BOM: the BOM is dropped', () => {
    const decoded = decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SAMPLE)]));
    expect(decoded).toEqual({ text: SAMPLE, encoding: 'utf-8', detectedBy: 'bom' });
  });

  it('UTF-16 LE and BE with BOMs', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SAMPLE, 'utf16le')]);
    expect(decodeText(le)).toEqual({ text: SAMPLE, encoding: 'utf-16le', detectedBy: 'bom' });
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(SAMPLE)]);
    expect(decodeText(be)).toEqual({ text: SAMPLE, encoding: 'utf-16be', detectedBy: 'bom' });
  });

  it('UTF-16 without a BOM, from the NUL pattern', () => {
    expect(decodeText(Buffer.from(SAMPLE, 'utf16le'))).toEqual({ text: SAMPLE, encoding: 'utf-16le', detectedBy: 'nul-pattern' });
    expect(decodeText(utf16be(SAMPLE))).toEqual({ text: SAMPLE, encoding: 'utf-16be', detectedBy: 'nul-pattern' });
  });

  it('the corpus UTF-16 file (big-endian, with a BOM)', () => {
    const decoded = decodeText(corpusBytes('csv/stanley-cups-utf-16.csv'));
    expect(decoded.encoding).toBe('utf-16be');
    expect(decoded.text.startsWith('Stanley Cups,,\nTeam,Location,Stanley Cups\n')).toBe(true);
  });

  it('valid UTF-8 and plain ASCII', () => {
    expect(decodeText(Buffer.from(SAMPLE))).toEqual({ text: SAMPLE, encoding: 'utf-8', detectedBy: 'utf-8' });
    expect(decodeText(Buffer.from('a,b\n1,2\n')).encoding).toBe('utf-8');
  });

  it('windows-1252 (é, €, curly quotes) is guessed and decoded', () => {
    const decoded = decodeText(iconv.encode(SAMPLE, 'windows-1252'));
    expect(decoded).toEqual({ text: SAMPLE, encoding: 'windows-1252', detectedBy: 'guess' });
  });

  it('two accented characters are too little evidence for anything but windows-1252', () => {
    expect(decodeText(iconv.encode('a,b\né,€\n', 'windows-1252')).text).toBe('a,b\né,€\n');
  });

  it('latin1 text reads as windows-1252, its superset', () => {
    const text = 'naïve,façade\nÅse,Øre,Müller\n';
    expect(decodeText(iconv.encode(text, 'latin1'))).toMatchObject({ text, encoding: 'windows-1252' });
  });

  it('Central European windows-1250 is not mistaken for windows-1252', () => {
    const czech = 'Jméno,Město\nPetr Novák,Brno\nŽofie Černá,Plzeň\n';
    expect(decodeText(iconv.encode(czech, 'windows-1250'))).toMatchObject({ text: czech, encoding: 'windows-1250' });
  });

  it('German that windows-1257 reads letter for letter alike is named windows-1252, the encoding such files are written in', () => {
    const german = 'Artikel;Preis\nÄpfel;1,20\nGemüse;2,50\n';
    expect(decodeText(iconv.encode(german, 'windows-1252'))).toMatchObject({ text: german, encoding: 'windows-1252' });
  });

  it('French is not read as Greek windows-1253 (its words would mix Latin and Greek letters)', () => {
    const french = 'Café crème,3 €\n“Quoted”,5\n';
    expect(decodeText(iconv.encode(french, 'windows-1252'))).toMatchObject({ text: french, encoding: 'windows-1252' });
  });

  it('other legacy encodings jschardet recognises: windows-1251, windows-1253, Shift_JIS', () => {
    const greek = 'Όνομα,Πόλη\nΓιώργος,Αθήνα\n';
    expect(decodeText(iconv.encode(greek, 'windows-1253')).text).toBe(greek);
    const russian = 'Имя,Город\nИван,Москва\nПётр,Санкт-Петербург\n';
    expect(decodeText(iconv.encode(russian, 'windows-1251'))).toMatchObject({ text: russian, encoding: 'windows-1251' });
    const japanese = '名前,都市\n田中,東京\n鈴木,大阪\n';
    expect(decodeText(iconv.encode(japanese, 'shift_jis')).text).toBe(japanese);
  });

  it('guesses from the non-ASCII lines even when they come after a long ASCII start', () => {
    const text = `${'id,value\n'.repeat(20_000)}Crème brûlée,4 €\n`;
    expect(decodeText(iconv.encode(text, 'windows-1252'))).toMatchObject({ text, encoding: 'windows-1252' });
  });

  it("lets go of jschardet's 22 MB of models once guesses stop coming, and guesses alike when it loads them again", () => {
    vi.useFakeTimers();
    try {
      const czech = iconv.encode('Jméno,Město\nPetr Novák,Brno\nŽofie Černá,Plzeň\n', 'windows-1250');
      const first = decodeText(czech);
      expect(chardetHeld()).toBe(true);
      // A run of guesses keeps it.
      vi.advanceTimersByTime(1_000);
      expect(decodeText(czech)).toEqual(first);
      vi.advanceTimersByTime(1_000);
      expect(chardetHeld()).toBe(true);
      vi.advanceTimersByTime(1_000);
      expect(chardetHeld()).toBe(false);
      expect(decodeText(czech)).toEqual(first);
      expect(chardetHeld()).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('looksLikeText', () => {
  it('accepts text in UTF-8, UTF-16 and legacy encodings', () => {
    expect(looksLikeText(Buffer.from(SAMPLE))).toBe(true);
    expect(looksLikeText(Buffer.from(SAMPLE, 'utf16le'))).toBe(true);
    expect(looksLikeText(iconv.encode(SAMPLE, 'windows-1252'))).toBe(true);
  });

  it('rejects binary content', () => {
    expect(looksLikeText(corpusBytes('xls/tests-example.xls'))).toBe(false);
    expect(looksLikeText(Uint8Array.from({ length: 512 }, (_value, index) => index % 32))).toBe(false);
  });
});
