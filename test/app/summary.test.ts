/** The run's summary: each path counted once, as what it ended as; causes grouped with their extensions. */
import { describe, expect, it } from 'vitest';
import { describeGroups, SummaryCounter } from '../../src/app/summary.js';

describe('SummaryCounter', () => {
  it('counts a path whose job ran twice once, as its last outcome', () => {
    const counter = new SummaryCounter();
    counter.record({ status: 'converted', relativePath: 'a.pdf', requests: 1, durationMs: 1, numPages: 2 });
    counter.record({ status: 'skipped', relativePath: 'a.pdf', requests: 0, durationMs: 1, reason: 'unchanged' });
    counter.record({ status: 'converted', relativePath: 'b.pdf', requests: 1, durationMs: 1 });
    expect(counter.counts).toMatchObject({ converted: 1, skipped: 1, failed: 0 });
    expect(counter.done).toBe(2);
  });

  it('groups failures and files it did not convert by cause, with their extensions, most frequent first', () => {
    const counter = new SummaryCounter();
    const fail = (path: string, code: string) =>
      counter.record({ status: 'failed', relativePath: path, requests: 1, durationMs: 1, error: { code, message: 'x' } });
    fail('a.pdf', 'ENCRYPTED_DOCUMENT');
    fail('b.docx', 'ENCRYPTED_DOCUMENT');
    fail('c.pdf', 'ENCRYPTED_DOCUMENT');
    fail('d.pdf', 'CORRUPT_DOCUMENT');
    fail('e.odt', 'EMPTY_DOCUMENT');
    fail('f.xlsx', 'CONVERSION_FAILED');
    counter.notConverted('mail/1.msg', 'unsupported extension', '.msg');
    counter.notConverted('mail/2.msg', 'unsupported extension', '.msg');
    counter.notConverted('old-md', 'folder of docmill outputs'); // a folder: no extension to group by
    expect(describeGroups(counter.failures())).toBe('3 password-protected (.pdf 2, .docx 1), 2 corrupt or empty (.odt 1, .pdf 1), 1 could not be converted (.xlsx 1)');
    expect(describeGroups(counter.notConvertedGroups())).toBe('2 unsupported extension (.msg 2), 1 folder of docmill outputs');
    expect(counter.counts.notConverted).toBe(3);
  });

  it('counts the documents converted with a warning and keeps the first few with it, each path once, as it ended', () => {
    const counter = new SummaryCounter();
    const convert = (path: string, warning?: string) =>
      counter.record({ status: 'converted', relativePath: path, requests: 1, durationMs: 1, ...(warning ? { warning } : {}) });
    convert('a.docx', 'The file was cut short.');
    convert('b.html');
    convert('c.pdf', 'Page(s) 3 could not be read.');
    convert('c.pdf', 'Page(s) 3 could not be read.'); // its job ran twice
    convert('d.csv', 'The file is empty: it holds no rows of data.');
    convert('e.rtf', 'unbalanced braces');
    expect(counter.warnings()).toEqual({
      count: 4,
      examples: [
        { path: 'a.docx', warning: 'The file was cut short.' },
        { path: 'c.pdf', warning: 'Page(s) 3 could not be read.' },
        { path: 'd.csv', warning: 'The file is empty: it holds no rows of data.' },
      ],
    });
    // Converted again without one (a rerun with --force on a repaired file, say): no longer counted or shown.
    convert('a.docx');
    counter.record({ status: 'failed', relativePath: 'c.pdf', requests: 1, durationMs: 1, error: { code: 'CORRUPT_DOCUMENT', message: 'x' } });
    expect(counter.warnings()).toEqual({ count: 2, examples: [{ path: 'd.csv', warning: 'The file is empty: it holds no rows of data.' }] });
  });
});
