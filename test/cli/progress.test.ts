/** The run's progress display on a terminal: failures as single lines above a progress line kept at the bottom. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SummaryCounter } from '../../src/app/summary.js';
import { Progress } from '../../src/cli/progress.js';
import { createLogger } from '../../src/logging/logger.js';
import { secrets } from '../../src/logging/redact.js';

function terminal(): { stream: PassThrough & { isTTY: boolean; columns: number }; text: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 200 });
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('Progress on a terminal', () => {
  it('prints each failure as one line (file, code, message) and redraws the progress line below it', () => {
    const { stream, text } = terminal();
    const counter = new SummaryCounter();
    const progress = new Progress(stream, createLogger({ level: 'silent' }), counter);
    secrets.add('sk-progress-secret');
    progress.start();
    counter.counts.queued = 2;
    progress.listingDone();
    const outcome = {
      status: 'failed' as const,
      relativePath: 'scans/locked.pdf',
      requests: 1,
      durationMs: 5,
      error: { status: 400, code: 'ENCRYPTED_DOCUMENT', message: 'locked.pdf: the PDF is\npassword-protected (key sk-progress-secret)' },
    };
    counter.record(outcome);
    progress.document(outcome);
    counter.record({ status: 'converted', relativePath: 'a.pdf', requests: 1, durationMs: 5, numPages: 3 });
    progress.document({ status: 'converted', relativePath: 'a.pdf', requests: 1, durationMs: 5 });
    progress.stop();
    const lines = text().split('\n');
    const failureLines = lines.filter((line) => line.includes('locked.pdf'));
    expect(failureLines).toHaveLength(1);
    expect(failureLines[0]).toMatch(/failed {2}scans\/locked\.pdf {2}ENCRYPTED_DOCUMENT {2}locked\.pdf: the PDF is password-protected/);
    expect(text()).not.toContain('sk-progress-secret');
    // The progress line is redrawn right below the failure line; nothing is printed for a conversion.
    const below = lines[lines.indexOf(failureLines[0] as string) + 1];
    expect(below).toMatch(/1\/2 files · 0 converted · 0 skipped · 1 failed/);
    expect(text()).not.toMatch(/converted {2}a\.pdf/);
  });
});
