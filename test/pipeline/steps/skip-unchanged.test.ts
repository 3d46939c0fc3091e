/**
 * The skip check made before a byte is read: whether the stored state says this document is done, and as what. Pure.
 */
import { describe, expect, it } from 'vitest';
import { unchangedOutcome, type UnchangedCheck } from '../../../src/pipeline/steps/skip-unchanged.js';
import type { DocumentState } from '../../../src/store/output-store.js';
import { FINGERPRINT, jobData } from './step-fixtures.js';

const ENQUEUED_AT = Date.parse('2030-01-01T00:00:00Z');

function check(fields: Partial<UnchangedCheck> = {}): UnchangedCheck {
  return { data: jobData('a/report.pdf'), requests: 0, attemptsStarted: 1, enqueuedAt: ENQUEUED_AT, ...fields };
}

function state(fields: Partial<DocumentState> = {}): DocumentState {
  return {
    relativePath: 'a/report.pdf',
    source: 'file:///src/a/report.pdf',
    changeToken: 'mtime-1:100',
    sha256: 'c0ffee',
    optionsFingerprint: FINGERPRINT,
    outputs: ['a/report.pdf.md', 'a/report.pdf.json'],
    numPages: 3,
    creditsUsed: 3,
    convertedAt: '2029-12-31T00:00:00Z',
    origin: 'parsed',
    requests: 2,
    ...fields,
  };
}

describe('unchangedOutcome', () => {
  it('skips a document whose state has the same change token and options, counting the requests of this job only', () => {
    expect(unchangedOutcome(check({ requests: 1 }), state())).toEqual({ status: 'skipped', state: state(), reason: 'unchanged', requests: 1 });
  });

  it('parses a document with no state, a changed file, other options, or --force', () => {
    expect(unchangedOutcome(check(), undefined)).toBeUndefined();
    expect(unchangedOutcome(check(), state({ changeToken: 'mtime-2:100' }))).toBeUndefined();
    expect(unchangedOutcome(check(), state({ optionsFingerprint: 'other' }))).toBeUndefined();
    expect(unchangedOutcome(check({ data: jobData('a/report.pdf', { force: true }) }), state())).toBeUndefined();
  });

  it('looks anew at a file back under a path whose removal was recorded, even with the change token it had', () => {
    expect(unchangedOutcome(check(), state({ removedAt: '2030-01-02T00:00:00Z' }))).toBeUndefined();
  });

  it('records a conversion its own earlier start made but did not record (it died before the manifest line)', () => {
    const written = state({ convertedAt: '2030-01-01T00:00:05Z' });
    expect(unchangedOutcome(check({ attemptsStarted: 2, requests: 1 }), written)).toEqual({
      status: 'converted',
      state: written,
      reason: undefined,
      requests: 3,
    });
    const copied = state({ convertedAt: '2030-01-01T00:00:05Z', origin: 'copied' });
    expect(unchangedOutcome(check({ attemptsStarted: 2 }), copied)).toMatchObject({ status: 'skipped', reason: 'same content' });
  });

  it('treats a state older than the job, or a job on its first start, as unchanged', () => {
    expect(unchangedOutcome(check({ attemptsStarted: 2 }), state())).toMatchObject({ status: 'skipped', reason: 'unchanged' });
    expect(unchangedOutcome(check({ attemptsStarted: 1 }), state({ convertedAt: '2030-01-01T00:00:05Z' }))).toMatchObject({ reason: 'unchanged' });
  });
});
