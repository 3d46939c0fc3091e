/** Errors of the composition root: settings that cannot make a pipeline. */
import { DocmillError } from '../errors/docmill-error.js';

export class MissingRedisError extends DocmillError {
  constructor() {
    super(
      'REDIS_NOT_CONFIGURED',
      'no Redis: set REDIS_URL or pass --redis redis://host:6379 (the embedded Redis needs --out, to keep its state there)',
    );
  }
}
