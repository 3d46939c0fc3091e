/**
 * A requirements matrix: a borderless table whose columns stand about 8 pt apart, its cells wrapped over two or
 * three lines, its rows set well apart by the cells' padding. Page 1 in 9 pt type, page 2 in 12 pt, where 8 pt is
 * under an em and a wrapped cell running up to its column's edge meets the next column's text.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';

async function matrix() {
  const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/requirements-matrix.pdf', import.meta.url)));
  return convertBytes(bytes, { mode: 'fast' });
}

describe('a requirements matrix of wrapped cells', () => {
  it('reads each page as one table, a row per requirement with its wrapped cells whole', async () => {
    const doc = await matrix();
    const tables = doc.pages.map((page) => page.blocks.filter((block) => block.type === 'table').map((table) => table.markdown.split('\n')));
    expect(tables[0]).toEqual([
      [
        '| ID | Requirement | Priority | Source | Verification |',
        '| --- | --- | --- | --- | --- |',
        '| R-01 | The system shall store every uploaded record for at least seven years after its last change. | Must | Records retention policy | Inspection of the storage settings |',
        '| R-02 | Users shall sign in with their organisation account and a second factor. | Must | Security standard 4.2 | Test with a new account |',
        '| R-03 | A search over one million records shall return its first page of results within two seconds. | Should | User survey | Load test on the staging system |',
        '| R-04 | The interface shall meet the accessibility guidelines at level AA. | Must | Public sector regulations | External audit |',
        '| R-05 | Reports shall be exported as spreadsheets and as printable documents. | Could | Finance team workshop | Demonstration to the finance team |',
      ],
    ]);
    expect(tables[1]).toEqual([
      [
        '| ID | Criterion | Owner | Evidence |',
        '| --- | --- | --- | --- |',
        '| A-01 | Every record migrated from the old system opens without errors and shows the same fields as before. | Data team | Migration report signed by the data owner |',
        '| A-02 | Staff can complete the five most common tasks without help after one hour of training at the NHS. | Training lead | Observed sessions with ten users |',
        '| A-03 | The nightly backup is restored to a spare server and checked each week for a month. | Operations | Restore logs |',
        "| A-04 | Reports exported as spreadsheets open in the finance team's own tools and keep their formulas and printable documents. | Finance team | Sample reports checked by two analysts |",
      ],
    ]);
  });

  it('keeps the paragraphs round each table as text, in order', async () => {
    const doc = await matrix();
    const markdown = mainMarkdown(doc);
    expect(markdown).toContain('the way it will be verified before the system is accepted.\n\n| ID | Requirement |');
    expect(markdown).toContain('analysts |\n\nCriteria that are not met by the handover date are recorded as defects and given a date for their fix.');
    expect(allBlocks(doc).filter((block) => block.type === 'table')).toHaveLength(2);
  });
});
