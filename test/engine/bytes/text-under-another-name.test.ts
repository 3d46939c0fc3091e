/**
 * Regression: a plain-text file named `.odt` (not a zip) was converted into a one-column table, as if it were CSV.
 * One rule in the router now: text under another format's name is CSV only when it reads as a table; prose is
 * converted as plain text (Markdown paragraphs); HTML as HTML; each with a warning naming both. Checked for every
 * extension a document, a workbook, a deck or a book is named with.
 */
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../../src/engine/engine.js';
import { routeDocument } from '../../../src/engine/route.js';
import { options } from '../html/helpers.js';

const bytes = (text: string) => new TextEncoder().encode(text);

const PROSE = 'Minutes of the meeting\n\nWe agreed to ship on Monday.\nAnna writes the notes, and Bob the summary.\n\n# not a heading\n';
const PROSE_MARKDOWN = 'Minutes of the meeting\n\nWe agreed to ship on Monday.\nAnna writes the notes, and Bob the summary.\n\n\\# not a heading';
const CSV = 'item,qty\nbolt,4\nnut,12\n';
const CSV_MARKDOWN = '| item | qty |\n| --- | --- |\n| bolt | 4 |\n| nut | 12 |';
const HTML = '<!DOCTYPE html><html><head><title>Notes</title></head><body><h1>Notes</h1><p>Ship on Monday.</p></body></html>';

const EXTENSIONS = ['.docx', '.pptx', '.xlsx', '.odt', '.odp', '.ods', '.epub', '.pdf', '.doc', '.ppt', '.xls', '.rtf'];

function parse(text: string, fileName: string) {
  return parseDocument({ bytes: bytes(text), fileName, options: options() });
}

describe('text named as another format is converted as what it is, never as a table it is not', () => {
  it.each(EXTENSIONS)('prose named %s: Markdown paragraphs, with a warning', async (extension) => {
    const data = await parse(PROSE, `notes${extension}`);
    expect(data.markdown).toBe(PROSE_MARKDOWN);
    expect(routeDocument(`notes${extension}`, bytes(PROSE)).converter).toBe('text');
    expect(data.warning).toBe(`notes${extension} is a text file (CSV or plain text); converted as plain text.`);
    expect(data.metadata?.contentType).toBe('text/plain');
  });

  it.each(EXTENSIONS)('CSV named %s: a table, with a warning', async (extension) => {
    const data = await parse(CSV, `orders${extension}`);
    expect(data.markdown).toBe(CSV_MARKDOWN);
    expect(data.warning).toBe(`orders${extension} is a text file (CSV or plain text); converted as CSV.`);
    expect(data.metadata?.contentType).toBe('text/csv');
  });

  it.each(EXTENSIONS)('HTML named %s: a web page, with a warning', async (extension) => {
    const data = await parse(HTML, `page${extension}`);
    expect(data.markdown).toBe('# Notes\n\nShip on Monday.');
    expect(data.warning).toBe(`page${extension} is an HTML page; converted as HTML.`);
    expect(data.metadata?.contentType).toBe('text/html');
  });

  it('the rule is the router\'s: one column of values is no table; a .csv is CSV whatever it holds', () => {
    expect(routeDocument('ids.xls', bytes('id\n17\n23\n42\n'))).toMatchObject({ converter: 'text', realType: 'text' });
    expect(routeDocument('ids.csv', bytes('id\n17\n23\n42\n'))).toMatchObject({ converter: 'csv', extension: '.csv' });
    expect(routeDocument('notes.csv', bytes(PROSE))).toMatchObject({ converter: 'csv', extension: '.csv' });
    expect(routeDocument('notes.csv', bytes(PROSE)).warning).toBeUndefined();
    // Tab- and semicolon-separated exports are tables too.
    expect(routeDocument('export.xls', bytes('name\tqty\nbolt\t4\n'))).toMatchObject({ converter: 'csv', extension: '.csv' });
    expect(routeDocument('export.ods', bytes('name;qty\nbolt;4\n'))).toMatchObject({ converter: 'csv', extension: '.csv' });
  });
});
