/**
 * Options of the contract the local engine does not honour yet are refused with a 400 naming the option, never
 * accepted and ignored: a caller who asks for redaction must not get personal data back silently.
 */
import type { ParseOptions } from '../contract/options.js';
import { EngineError } from './engine-error.js';

export function refuseUnimplementedOptions(options: ParseOptions): void {
  if (options.redactPII !== undefined && options.redactPII !== false) {
    throw new EngineError(
      'OPTION_NOT_SUPPORTED',
      'option redactPII is not supported by the local engine yet; nothing was parsed (use a remote parse API that redacts, or leave redactPII out)',
    );
  }
}
