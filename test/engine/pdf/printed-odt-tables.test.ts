/**
 * An OpenDocument file of tables printed by LibreOffice: a table of text beside pictures, whose pictures' cells hold
 * no text, keeps every header name (another reader's table there left the second one out, and the word was lost
 * with its box); a table whose cells each hold a bulleted list is a table of lists, two columns.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes } from './helpers.js';

async function printedTables(): Promise<string[][]> {
  const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/text_document_03.pdf', import.meta.url)));
  const doc = await convertBytes(bytes, { mode: 'fast' });
  return allBlocks(doc)
    .filter((block) => block.type === 'table')
    .map((block) => block.markdown.split('\n'));
}

describe('tables of an OpenDocument file printed by LibreOffice', () => {
  it('keep the header of a table whose second column holds only pictures', async () => {
    const tables = await printedTables();
    expect(tables).toContainEqual(['| Column A | Column B |', '| --- | --- |', '| Only text |  |', '| Text and picture |  |']);
  });

  it('read a table of lists as two columns, a list a cell', async () => {
    const tables = await printedTables();
    expect(tables).toContainEqual([
      '| • R1C1 item 1 • R1C1 item 2 | • R1C2 item 1 • R1C2 item 2 |',
      '| --- | --- |',
      '| • R2C1 item 1 • R2C1 item 2 | • R2C2 item 1 • R2C2 item 2 |',
    ]);
  });
});
