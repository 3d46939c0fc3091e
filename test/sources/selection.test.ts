/** The selection rules every source shares: temporary files, globs, supported extensions. */
import { describe, expect, it } from 'vitest';
import { createEntrySelector, isTemporaryName } from '../../src/sources/selection.js';
import { TEMP_MARKER } from '../../src/common/atomic-file.js';

describe('createEntrySelector', () => {
  it('selects supported extensions in any case, and reports the rest as unsupported', () => {
    const selector = createEntrySelector();
    expect(selector.skipReason('a/Report.PDF')).toBeUndefined();
    expect(selector.skipReason('.hidden.docx')).toBeUndefined();
    expect(selector.skipReason('table.CSV')).toBeUndefined();
    expect(selector.skipReason('notes.txt')).toBe('unsupported');
    expect(selector.skipReason('Makefile')).toBe('unsupported');
    expect(selector.skipReason('.pdf')).toBe('unsupported'); // a hidden file named "pdf", without extension
  });

  it('recognises docmill temporary files by name, before any glob', () => {
    const selector = createEntrySelector({ include: ['**'] });
    const temporary = `out/${TEMP_MARKER}report.pdf.9f8e7d`;
    expect(isTemporaryName(temporary)).toBe(true);
    expect(selector.skipReason(temporary)).toBe('temporary');
    expect(isTemporaryName(`${TEMP_MARKER.slice(0, -1)}/report.pdf`)).toBe(false);
  });

  it('excludes by glob, and by not matching the include globs', () => {
    const selector = createEntrySelector({ include: ['reports/**', '*.pdf'], exclude: ['**/drafts/**'] });
    expect(selector.skipReason('reports/2024/q1.docx')).toBeUndefined();
    expect(selector.skipReason('top.pdf')).toBeUndefined();
    expect(selector.skipReason('nested/other.pdf')).toBe('excluded'); // '*' does not cross '/'
    expect(selector.skipReason('reports/drafts/q2.pdf')).toBe('excluded');
    expect(selector.skipReason('reports/notes.txt')).toBe('unsupported');
  });

  it('treats empty glob lists as no filter', () => {
    expect(createEntrySelector({ include: [], exclude: [] }).skipReason('any/where.pdf')).toBeUndefined();
  });

  it('knows which directories are excluded whole', () => {
    const selector = createEntrySelector({ exclude: ['**/node_modules/**', 'archive/**', '!keep/**', '*.tmp'] });
    expect(selector.excludesWholeDirectory('node_modules')).toBe(true);
    expect(selector.excludesWholeDirectory('a/b/node_modules')).toBe(true);
    expect(selector.excludesWholeDirectory('archive')).toBe(true);
    expect(selector.excludesWholeDirectory('archive2')).toBe(false);
    expect(selector.excludesWholeDirectory('keep')).toBe(false);
    expect(createEntrySelector({ exclude: ['**'] }).excludesWholeDirectory('x')).toBe(true);
    expect(createEntrySelector({ exclude: ['**/*.pdf'] }).excludesWholeDirectory('x')).toBe(false);
  });
});
