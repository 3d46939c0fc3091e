/**
 * checkOptions (src/backend/upload-checks.ts), as the local engine and the remote client call it for every document:
 * one options object checked once for a batch, an object changed since checked again, each caller a copy of its own.
 */
import { describe, expect, it } from 'vitest';
import { checkOptions } from '../../src/backend/upload-checks.js';
import { OptionsValidationError } from '../../src/backend/errors.js';
import type { ParseOptionsInput } from '../../src/contract/options.js';

describe('checkOptions on the same options object, document after document', () => {
  it('gives the same options each time, each a copy its caller may change', () => {
    const input: ParseOptionsInput = { parsers: [{ type: 'pdf', mode: 'fast' }] };
    const first = checkOptions(input);
    const second = checkOptions(input);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    second.parsers[0]!.mode = 'ocr';
    expect(checkOptions(input).parsers[0]!.mode).toBe('fast');
  });

  it('checks an object again once it changed: a value made invalid is refused', () => {
    const input = { parsers: [{ type: 'pdf', mode: 'fast' }] } as { parsers: { type: string; mode: string }[] };
    checkOptions(input as ParseOptionsInput);
    input.parsers[0]!.mode = 'sideways';
    expect(() => checkOptions(input as ParseOptionsInput)).toThrow(OptionsValidationError);
  });

  it('checks an object again once a key was added, even one set to undefined', () => {
    const input = { timeout: 30_000 } as Record<string, unknown>;
    checkOptions(input as ParseOptionsInput);
    input.noSuchOption = undefined;
    const fresh = { timeout: 30_000, noSuchOption: undefined } as ParseOptionsInput;
    // Whatever the contract's schema says of such a key, the object checked again says the same as a fresh one.
    const outcome = (value: ParseOptionsInput) => {
      try {
        return checkOptions(value);
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(outcome(input as ParseOptionsInput)).toEqual(outcome(fresh));
  });
});
