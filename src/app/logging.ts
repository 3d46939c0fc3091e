/** Logs as the entry points make them: pino loggers, and the scrubbing of registered secrets from what is shown. */
export { createLogger, type Logger } from '../logging/logger.js';
export { secrets } from '../logging/redact.js';
