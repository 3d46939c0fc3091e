import { describe, expect, it } from 'vitest';
import { detectDelimiter, parseCsv, parseCsvRows } from '../../../src/engine/csv/csv-parser.js';

describe('parseCsv (RFC 4180)', () => {
  it('splits fields and records; LF, CRLF and lone CR end records; no record after a final line break', () => {
    expect(parseCsvRows('a,b\n1,2\n', ',')).toEqual([['a', 'b'], ['1', '2']]);
    expect(parseCsvRows('a,b\r\n1,2\r\n', ',')).toEqual([['a', 'b'], ['1', '2']]);
    expect(parseCsvRows('a,b\r1,2', ',')).toEqual([['a', 'b'], ['1', '2']]);
  });

  it('keeps empty fields, including a trailing one', () => {
    expect(parseCsvRows(',a,,b,', ',')).toEqual([['', 'a', '', 'b', '']]);
    expect(parseCsvRows('a,\n,b\n', ',')).toEqual([['a', ''], ['', 'b']]);
  });

  it('a blank line is a record of one empty field', () => {
    expect(parseCsvRows('a\n\nb\n', ',')).toEqual([['a'], [''], ['b']]);
  });

  it('quoted fields hold delimiters, line breaks and doubled quotes', () => {
    const text = '"a,b","line 1\nline 2","say ""hi""",""\r\n"x\r\ny",z\n';
    expect(parseCsvRows(text, ',')).toEqual([
      ['a,b', 'line 1\nline 2', 'say "hi"', ''],
      ['x\r\ny', 'z'],
    ]);
  });

  it('is lenient where files break the RFC', () => {
    // A quote inside an unquoted field is a character; text after a closing quote is kept.
    expect(parseCsvRows('5" disk,"a"b,c\n', ',')).toEqual([['5" disk', 'ab', 'c']]);
  });

  it('an opening quote that never closes is read as a character, not to the end of the file', () => {
    const rows: string[][] = [];
    const result = parseCsv('a,"b,c\nd,e\nf,g\n', ',', (fields) => {
      rows.push(fields);
    });
    expect(rows).toEqual([['a', '"b', 'c'], ['d', 'e'], ['f', 'g']]);
    expect(result.unterminatedQuoteAt).toBe(2);
  });

  it('works with semicolon, tab and pipe, and with regex-special delimiters', () => {
    expect(parseCsvRows('a;"b;c"\n', ';')).toEqual([['a', 'b;c']]);
    expect(parseCsvRows('a\tb\n', '\t')).toEqual([['a', 'b']]);
    expect(parseCsvRows('a|b|"c|d"\n', '|')).toEqual([['a', 'b', 'c|d']]);
    expect(parseCsvRows('a^b]c\n', '^')).toEqual([['a', 'b]c']]);
  });

  it('stops when the callback returns false', () => {
    let seen = 0;
    const result = parseCsv('1\n2\n3\n4\n', ',', () => {
      seen += 1;
      return seen < 2;
    });
    expect(seen).toBe(2);
    expect(result).toMatchObject({ records: 2, stopped: true });
  });

  it('refuses delimiters it cannot parse with', () => {
    expect(() => parseCsvRows('a', '"')).toThrow(/Unsupported CSV delimiter/);
    expect(() => parseCsvRows('a', ',,')).toThrow(/Unsupported CSV delimiter/);
  });

  it('parses a 20 MB text with many quoted fields (a quadratic parser would overrun the test timeout)', () => {
    const line = '12345,"quoted, with ""doubled"" quotes",plain text here,"multi\nline"\n';
    const text = line.repeat(Math.ceil((20 * 1024 * 1024) / line.length));
    let records = 0;
    parseCsv(text, ',', () => {
      records += 1;
    });
    expect(records).toBe(Math.ceil((20 * 1024 * 1024) / line.length));
  });
});

describe('detectDelimiter', () => {
  it('comma, semicolon, tab and pipe', () => {
    expect(detectDelimiter('a,b,c\n1,2,3\n4,5,6\n')).toBe(',');
    expect(detectDelimiter('a;b;c\n1;2;3\n4;5;6\n')).toBe(';');
    expect(detectDelimiter('a\tb\tc\n1\t2\t3\n')).toBe('\t');
    expect(detectDelimiter('a|b|c\n1|2|3\n')).toBe('|');
  });

  it('semicolons with decimal commas: the consistent delimiter wins', () => {
    expect(detectDelimiter('Name;Price;Weight\nA;1,5;2,25\nB;2,5;3\nC;4;1,75\n')).toBe(';');
  });

  it('respects quotes: commas inside quoted fields do not count', () => {
    expect(detectDelimiter('name;note\n"Smith, J";"a, b, c"\n"Doe, A";"x"\n')).toBe(';');
    expect(detectDelimiter('name,note\n"a;b;c",1\n"d;e",2\n')).toBe(',');
  });

  it('a tab file whose text has commas stays tab-separated', () => {
    expect(detectDelimiter('name\tcity\nDoe, John\tParis, France\nRoe, Jane\tLyon\n')).toBe('\t');
  });

  it('ragged rows still find their delimiter', () => {
    expect(detectDelimiter('1,2,3,4\r\na,b,c,d\r\na,b,c,d,e\r\na,b,c,d\r\na,b,c,d')).toBe(',');
  });

  it('text no candidate splits is one comma-separated column', () => {
    expect(detectDelimiter('just\none\ncolumn\n')).toBe(',');
    expect(detectDelimiter('')).toBe(',');
  });

  it('only the first ~50 records vote', () => {
    const text = `${'a;b\n'.repeat(60)}${'x,y,z,w\n'.repeat(500)}`;
    expect(detectDelimiter(text)).toBe(';');
  });
});
