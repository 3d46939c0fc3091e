/**
 * When V8 optimises the CLI's code: the launcher raises V8 11's interrupt budget (Node 20), leaves V8 12 and later
 * (Node 22 and up, which know no such flag and would print an error for it) alone, and keeps a budget the user
 * started node with.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { TIERING_OPTION, tieringOption } from '../../src/cli/v8-tiering.js';

const BIN = fileURLToPath(new URL('../../bin/docmill.js', import.meta.url));

describe('V8 tiering of the CLI', () => {
  it('raises the interrupt budget on V8 11 (Node 20)', () => {
    expect(tieringOption('11.3.244.8-node.33', [])).toBe(TIERING_OPTION);
  });

  it('leaves V8 12 and later alone', () => {
    expect(tieringOption('12.4.254.21-node.33', [])).toBeUndefined();
    expect(tieringOption('13.6.233.17-node.38', [])).toBeUndefined();
  });

  it("keeps the budget the user started node with", () => {
    expect(tieringOption('11.3.244.8-node.33', ['--interrupt-budget=1000'])).toBeUndefined();
  });

  it('the launcher starts on this node with nothing on stderr', async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, '--version']);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(stderr).toBe('');
  });
});
