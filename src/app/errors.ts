/**
 * Errors of the composition root (settings that cannot make a pipeline), and the typed errors an entry point turns
 * into what its user sees (the CLI's exit codes and messages).
 */
import { DocmillError } from '../errors/docmill-error.js';

export { DocmillError };
export { RunBlockedError } from '../errors/run-blocked.js';
export {
  InvalidResponseError,
  OptionsValidationError,
  ParseAbortedError,
  ParseApiError,
  ParseDeadlineError,
  ParseNetworkError,
} from '../backend/errors.js';

export class MissingRedisError extends DocmillError {
  constructor() {
    super(
      'REDIS_NOT_CONFIGURED',
      'no Redis: set REDIS_URL or pass --redis redis://host:6379 (the embedded Redis needs --out, to keep its state there)',
    );
  }
}
