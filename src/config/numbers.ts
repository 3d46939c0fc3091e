/** The one check every numeric setting goes through, whether it came from a flag (text) or a library call. */
import { DocmillError } from '../errors/docmill-error.js';

export class InvalidSettingError extends DocmillError {
  constructor(message: string) {
    super('INVALID_SETTING', message);
  }
}

export interface IntegerRange {
  /** @default 1 */
  min?: number;
  max?: number;
}

/** An integer within the range, from a number or its decimal text; InvalidSettingError naming `label` otherwise. */
export function integerSetting(value: number | string, label: string, { min = 1, max }: IntegerRange = {}): number {
  const number = typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isInteger(number) || number < min || (max !== undefined && number > max)) {
    const range = max !== undefined ? `an integer from ${min} to ${max}` : min === 1 ? 'a positive integer' : `an integer of at least ${min}`;
    throw new InvalidSettingError(`${label} must be ${range}, not "${value}"`);
  }
  return number;
}
