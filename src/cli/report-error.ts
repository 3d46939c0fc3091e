/**
 * Turns any error into the exit code and the stderr text a user sees. Every line is scrubbed of secrets.
 */
import {
  DocmillError,
  InvalidResponseError,
  OptionsValidationError,
  ParseAbortedError,
  ParseApiError,
  ParseDeadlineError,
  ParseNetworkError,
  RunBlockedError,
} from '../app/errors.js';
import { secrets } from '../app/logging.js';
import { EXIT } from './exit-codes.js';

export interface ErrorReport {
  exitCode: number;
  text: string;
}

export function reportError(error: unknown, context?: string): ErrorReport {
  const prefix = context ? `${context}: ` : '';
  if (error instanceof ParseApiError) {
    const lines = [
      `docmill: ${prefix}parse failed: HTTP ${error.status}` +
        `${error.apiCode ? ` (code ${error.apiCode})` : ''}: ${error.apiMessage}`,
    ];
    lines.push(...detailLines(error.details));
    if (error.attempts > 1) lines.push(`  gave up after ${error.attempts} attempts`);
    const hint = hintFor(error.status);
    if (hint) lines.push(`  ${hint}`);
    return { exitCode: EXIT.api, text: secrets.scrub(lines.join('\n')) };
  }
  if (error instanceof ParseNetworkError || error instanceof ParseDeadlineError) {
    const attempts = error.attempts > 1 ? ` (after ${error.attempts} attempts)` : '';
    return { exitCode: EXIT.api, text: secrets.scrub(`docmill: ${prefix}${error.message}${attempts}`) };
  }
  if (error instanceof InvalidResponseError) {
    return { exitCode: EXIT.api, text: secrets.scrub(`docmill: ${prefix}${error.message}`) };
  }
  if (error instanceof RunBlockedError) {
    return { exitCode: EXIT.api, text: secrets.scrub(`docmill: ${prefix}${error.message}\n  ${error.remedy}, and try again`) };
  }
  if (error instanceof ParseAbortedError) {
    return { exitCode: EXIT.interrupted, text: `docmill: ${prefix}interrupted` };
  }
  if (error instanceof OptionsValidationError) {
    return { exitCode: EXIT.usage, text: secrets.scrub(`docmill: ${prefix}${error.message}\nNothing was sent.`) };
  }
  if (error instanceof DocmillError) {
    return { exitCode: EXIT.usage, text: secrets.scrub(`docmill: ${prefix}${error.message}`) };
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { exitCode: EXIT.someFailed, text: secrets.scrub(`docmill: unexpected error: ${message}`) };
}

function detailLines(details: unknown): string[] {
  if (!Array.isArray(details)) return [];
  return details.slice(0, 20).map((detail) => {
    if (detail && typeof detail === 'object' && 'message' in detail) {
      const { path, message } = detail as { path?: unknown; message?: unknown };
      const where = Array.isArray(path) ? path.join('.') : typeof path === 'string' ? path : '';
      return `  ${where || '(request)'}: ${String(message)}`;
    }
    return `  ${JSON.stringify(detail)}`;
  });
}

function hintFor(status: number): string | undefined {
  switch (status) {
    case 401:
      return 'check the key (--api-key or DOCMILL_API_KEY)';
    case 402:
      return 'the account is out of credits; add credits, then run again';
    case 403:
      return 'the key is valid but lacks permission for /v2/parse';
    case 404:
      return 'check --api-url: it should be the API base, e.g. https://api.example.com';
    default:
      return undefined;
  }
}
