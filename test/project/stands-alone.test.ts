/**
 * A clone of docmill passes its tests with nothing beside it: no file the tests, the code, the worker entry points,
 * the scripts or CI run may reach for a folder outside the repository (the project's own machines keep a document
 * pool in a sibling folder; a user's clone has no such thing). Benchmarks may take such a folder as a flag.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const GUARDED = ['src', 'test', 'workers', 'scripts', '.ci'];
/** The project machines' document pool beside the checkout (spelled in pieces so this file does not match itself). */
const POOL = 'shared';
const OUTSIDE = new RegExp(`\\.\\./${POOL}|${POOL}/corpus`);

function trackedFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...GUARDED], {
    cwd: REPO,
    encoding: 'utf8',
  });
  return listed.split('\0').filter((file) => file !== '' && !file.startsWith('test/fixtures/'));
}

describe('the repository stands alone', () => {
  it('has no file under src, test, workers, scripts or .ci that refers to a folder beside the repository', () => {
    const offenders: string[] = [];
    for (const file of trackedFiles()) {
      let text: string;
      try {
        text = readFileSync(`${REPO}/${file}`, 'utf8');
      } catch {
        continue;
      }
      text.split('\n').forEach((line, index) => {
        if (OUTSIDE.test(line)) offenders.push(`${file}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(offenders).toEqual([]);
  });

  it('keeps the origin and licence of every fixture document it ships', () => {
    const sources = readFileSync(`${REPO}/test/fixtures/corpus/SOURCES.md`, 'utf8');
    const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', 'test/fixtures/corpus'], {
      cwd: REPO,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((file) => file !== '' && !file.endsWith('SOURCES.md') && !file.endsWith('.expected.md'));
    expect(listed.length).toBeGreaterThan(50);
    const missing = listed.map((file) => file.replace('test/fixtures/corpus/', '')).filter((file) => !sources.includes(`\`${file}\``));
    expect(missing).toEqual([]);
  });
});
