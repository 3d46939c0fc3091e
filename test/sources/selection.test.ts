/** The selection rules every source shares: temporary files, globs, supported extensions. */
import { describe, expect, it } from 'vitest';
import { createEntrySelector, isTemporaryName } from '../../src/sources/selection.js';
import { TEMP_MARKER } from '../../src/common/atomic-file.js';
import { seededRandom } from '../engine/mutations/mutate.js';

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

  it('leaves out whole the directories no include glob can reach below', () => {
    const top = createEntrySelector({ include: ['*.pdf', '*.{docx,html}'] });
    expect(top.excludesWholeDirectory('node_modules')).toBe(true);
    expect(top.excludesWholeDirectory('a.pdf')).toBe(true); // a folder so named holds no top-level file
    const nested = createEntrySelector({ include: ['reports/*/*.pdf', 'scans/**'] });
    expect(nested.excludesWholeDirectory('reports')).toBe(false);
    expect(nested.excludesWholeDirectory('reports/2024')).toBe(false);
    expect(nested.excludesWholeDirectory('reports/2024/q1')).toBe(true);
    expect(nested.excludesWholeDirectory('scans/a/b/c')).toBe(false);
    expect(nested.excludesWholeDirectory('other')).toBe(true);
    expect(createEntrySelector({ include: ['**/*.pdf'] }).excludesWholeDirectory('any/where')).toBe(false);
    // Patterns that cannot be cut at their slashes leave every directory to be entered.
    expect(createEntrySelector({ include: ['{a,b/c}/*.pdf'] }).excludesWholeDirectory('b')).toBe(false);
    expect(createEntrySelector({ include: ['*.pdf', '!x'] }).excludesWholeDirectory('d')).toBe(false);
  });

  it('never leaves out a directory holding a file the include globs select (seeded patterns and paths)', () => {
    const random = seededRandom(2026_11_30);
    const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const segments = ['a', 'b', '.hidden', 'a.pdf', 'x y', '*', '**', '?', '[ab]', '*.pdf', 'a*', '{a,b}', '@(a|b)'];
    const names = ['a', 'b', '.hidden', 'a.pdf', 'x y', 'c.pdf', 'b.docx'];
    let checked = 0;
    for (let round = 0; round < 300; round++) {
      const include = Array.from({ length: 1 + Math.floor(random() * 2) }, () =>
        Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(segments)).join('/'),
      );
      const selector = createEntrySelector({ include });
      for (let sample = 0; sample < 40; sample++) {
        const path = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(names));
        if (selector.skipReason(path.join('/')) === 'excluded') continue;
        for (let depth = 1; depth < path.length; depth++) {
          expect(selector.excludesWholeDirectory(path.slice(0, depth).join('/')), `${include.join(' ')} ${path.join('/')}`).toBe(false);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(200);
  });
});
