/**
 * Programs and plain text printed in Courier (`enscript | ps2pdf`, `test/fixtures/printed/README.md`): every line of
 * such a page is monospaced, so the font says nothing of code, as on a typed transcript. The program's lines are its
 * code block, indented and spaced as printed; a lease typed in Courier, whose clauses end in `;`, stays prose; a
 * diagram drawn with characters is kept as drawn, and a table bordered with characters is a table.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DocumentModel } from '../../../src/engine/model.js';
import { sourceCodeLines } from '../../../src/engine/pdf/source-code.js';
import { allBlocks, convertBytes, convertWithPdfjs } from './helpers.js';

function printed(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../../fixtures/printed/${name}`, import.meta.url)));
}

function codeBlocks(doc: DocumentModel): string[] {
  return allBlocks(doc)
    .map((block) => block.markdown)
    .filter((markdown) => markdown.startsWith('```'));
}

/** The source as printed: its lines, tabs none, trailing spaces none. */
function sourceLines(name: string): string[] {
  return readFileSync(new URL(`../../fixtures/printed/${name}`, import.meta.url), 'utf8').trimEnd().split('\n');
}

describe('a program printed in Courier', () => {
  it('reads as one code block holding its lines as printed: indents, blank lines, `-` and `<` as typed', async () => {
    const expected = ['```', ...sourceLines('code-listing.c'), '```'].join('\n');
    expect(codeBlocks(await convertBytes(printed('code-listing.pdf'), { mode: 'fast' }))).toEqual([expected]);
    // The pdfjs path lays the page out the same way.
    expect(codeBlocks(await convertWithPdfjs(printed('code-listing.pdf'), { mode: 'fast' }))).toEqual([expected]);
  });

  it('reads two programs printed two pages a sheet, each in its half, as their code', async () => {
    const doc = await convertBytes(printed('two-up-listing.pdf'), { mode: 'fast' });
    const blocks = codeBlocks(doc);
    const wordCounts = sourceLines('word-counts.py');
    const summary = sourceLines('report-summary.py');
    // The left half's program, then the right half's, each from its own margin (a function's body four spaces in).
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toContain(wordCounts.slice(wordCounts.indexOf('def parse_arguments(argv):'), wordCounts.indexOf('def main(argv):')).join('\n'));
    expect(blocks[1]).toBe(['```', ...summary, '```'].join('\n'));
  });
});

describe('plain text with tables and diagrams typed with characters', () => {
  it('reads a table bordered with `+---+` and `|` as a table, and a message format drawn so as drawn', async () => {
    const doc = await convertBytes(printed('typed-protocol.pdf'), { mode: 'fast' });
    const markdown = allBlocks(doc).map((block) => block.markdown);
    expect(markdown).toContain(
      ['| Code | Name | Meaning |', '| --- | --- | --- |', '| 1 | GET | Ask for a file by its name |', '| 2 | PUT | Send a file to be stored |', '| 3 | ERROR | Report a failed request |'].join('\n'),
    );
    const text = sourceLines('typed-protocol.txt');
    const diagram = text.slice(text.findIndex((line) => line.trim().startsWith('0 ')), text.indexOf('                     Figure 1: ETP message format') - 1);
    expect(codeBlocks(doc)).toEqual([['```', ...diagram, '```'].join('\n')]);
    expect(markdown).toContain('ETP is a request and response protocol. A client opens a connection, sends one request, reads one response and closes the connection. The message format is shown in Figure 1.');
  });

  it('reads a table drawn with box-drawing characters as a table of its cells, not of its bars', async () => {
    const doc = await convertBytes(printed('box-drawn-table.pdf'), { mode: 'fast' });
    expect(allBlocks(doc).map((block) => block.markdown)).toEqual([
      'Disk usage report for host harbour-01, generated 1 December 2026.',
      ['| Mount | Size | Used | Use% |', '| --- | --- | --- | --- |', '| / | 40 GB | 31 GB | 78 % |', '| /var | 200 GB | 122 GB | 61 % |', '| /home | 500 GB | 411 GB | 82 % |'].join('\n'),
      'Two volumes are above three quarters full. The /home volume will be full in about six weeks at the present rate of growth.',
    ]);
  });

  it('reads a line printer’s report as a table without the dashes typed under its header and over its total', async () => {
    const tables = allBlocks(await convertBytes(printed('typed-report.pdf'), { mode: 'fast' })).filter((block) => block.type === 'table');
    expect(tables.map((block) => block.markdown.split('\n'))).toEqual([
      [
        '| DEPT | DESCRIPTION | BUDGET | ACTUAL | VARIANCE |',
        '| --- | --- | --- | --- | --- |',
        '| 0110 | PARKS AND GARDENS | 125,000.00 | 118,432.17 | 6,567.83 |',
        '| 0120 | LIBRARIES | 98,500.00 | 101,210.44 | -2,710.44 |',
        '| 0130 | HARBOUR OPERATIONS | 240,000.00 | 236,905.02 | 3,094.98 |',
        '| 0140 | STREET LIGHTING | 61,250.00 | 59,870.00 | 1,380.00 |',
        '| 0150 | WASTE COLLECTION | 310,400.00 | 322,118.73 | -11,718.73 |',
        '|  | TOTAL | 835,150.00 | 838,536.36 | -3,386.36 |',
      ],
    ]);
  });

  it('reads psql’s output, a Markdown pipe table and a table ruled under every row, its cells wrapped, as tables', async () => {
    const tables = allBlocks(await convertBytes(printed('typed-tables.pdf'), { mode: 'fast' }))
      .filter((block) => block.type === 'table')
      .map((block) => block.markdown.split('\n'));
    expect(tables).toEqual([
      ['| id | name | region | orders |', '| --- | --- | --- | --- |', '| 1 | Acme Ltd | North | 42 |', '| 2 | Birch plc | South | 7 |', '| 3 | Cedar Co | East | 113 |'],
      ['| Region | Orders | Share |', '| --- | --- | --- |', '| North | 42 | 26 % |', '| South | 7 | 4 % |', '| East | 113 | 70 % |'],
      [
        '| Plan | Requests | Notes |',
        '| --- | --- | --- |',
        '| Free | 100 a day | For trying the service out; no support. |',
        '| Team | 10,000 a day | Shared by every member of the team. |',
        '| Business | unlimited | With a service level agreement. |',
      ],
    ]);
  });
});

describe('a plain-text e-mail printed in Courier', () => {
  it('reads the message it replies to as a block quote, nested as its `>` marks nest, each quoted paragraph whole', async () => {
    const blocks = allBlocks(await convertBytes(printed('typed-mail.pdf'), { mode: 'fast' }));
    const quote = blocks.find((block) => block.label === 'quote');
    expect(quote?.markdown).toBe(
      [
        '> Dana, could you look at the attached layout before Monday? The fire service wants a clear lane of four metres along the slipway, and I am not sure the stalls at the north end leave it.',
        '>',
        '> > On Thu, 26 Nov 2026, Planning Team wrote: The market moves to the harbour from 5 December. Please send any comments on the layout by the end of the month.',
        '>',
        '> Sam',
      ].join('\n'),
    );
    // The line introducing the quotation stays a paragraph of its own, before it.
    const markdown = blocks.map((block) => block.markdown);
    expect(markdown.indexOf('On Fri, 27 Nov 2026 at 16:40, Sam Ortiz &lt;sam@example.org> wrote:')).toBe(markdown.indexOf(quote!.markdown) - 1);
  });
});

describe('notes typed in Courier', () => {
  it('read their numbered items as a list, and no line as bold, though the font weighs as bold', async () => {
    const blocks = allBlocks(await convertBytes(printed('typed-notes.pdf'), { mode: 'fast' }));
    expect(blocks.map((block) => block.markdown)).toContain(
      ['1. Dana sends the revised layout to the fire service by Wednesday.', '2. Sam books the portable toilets.', '3. Lee writes to the stall holders.'].join('\n'),
    );
    expect(blocks.filter((block) => block.type === 'section_header' || block.type === 'title')).toEqual([]);
  });
});

describe('a lease typed in Courier', () => {
  it('stays prose: its clauses ending in `;` are no statements', async () => {
    const doc = await convertBytes(printed('typed-lease.pdf'), { mode: 'fast' });
    expect(codeBlocks(doc)).toEqual([]);
    expect(allBlocks(doc).map((block) => block.markdown)).toContain(
      'WHEREAS, the Landlord is the owner of the premises known as 14 Elm Street in the City of Springfield; and',
    );
  });
});

describe('sourceCodeLines', () => {
  it('takes a program among prose for code, and a licence’s clauses, a title underlined with `=` and plurals in brackets for prose', () => {
    const prose = [
      'LICENSING',
      '=========',
      'The Affirmer waives the following rights in the Work:',
      '  i. the right to reproduce, adapt, distribute, perform, display,',
      '     communicate, and translate a Work;',
      ' ii. moral rights retained by the original author(s) and/or performer(s);',
      'iii. publicity and privacy rights pertaining to a person\'s image or',
      '     likeness depicted in a Work;',
    ];
    expect(sourceCodeLines(prose)).toEqual(prose.map(() => false));
    const code = [
      'The service answers on port 8080 once it has read its',
      'settings, and it logs one line when it is ready. Start it',
      'from a script of your own with these lines:',
      'const server = createServer(handler);',
      'server.listen(8080, () => {',
      "  console.log('ready');",
      '});',
      'and stop it with Ctrl-C; it closes its connections first',
      'and exits once the last request has been answered.',
    ];
    expect(sourceCodeLines(code)).toEqual([false, false, false, true, true, true, true, false, false]);
    // Where code holds most of the lines, the page is a listing: its comments and strings are code too.
    const listing = ['/* Prints its arguments, one a line.', '   Returns 0. */', 'int main(int argc, char **argv) {', '  for (int i = 1; i < argc; i++) puts(argv[i]);', '  return 0;', '}'];
    expect(sourceCodeLines(listing)).toEqual(listing.map(() => true));
  });
});
