/**
 * Validation failures in the API's own shape: {success:false, code:"BAD_REQUEST", error, details:[{path, message}]}.
 */
import type { z } from 'zod';
import { parseOptionsSchema, type ParseOptions } from './options.js';

export interface ValidationDetail {
  /** Dotted path of the offending field, e.g. `parsers.0.maxPages`; '' for the object itself. */
  path: string;
  message: string;
}

export interface BadRequestBody {
  success: false;
  code: 'BAD_REQUEST';
  error: string;
  details: ValidationDetail[];
}

export function detailsFromZodError(error: z.ZodError): ValidationDetail[] {
  const details: ValidationDetail[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        details.push({ path: [...issue.path, key].join('.'), message: `Unrecognized key "${key}"` });
      }
      continue;
    }
    details.push({ path: issue.path.map(String).join('.'), message: issue.message });
  }
  return details;
}

export function badRequestBody(details: ValidationDetail[]): BadRequestBody {
  const summary = details
    .slice(0, 3)
    .map((detail) => (detail.path ? `${detail.path}: ${detail.message}` : detail.message))
    .join('; ');
  const more = details.length > 3 ? ` (and ${details.length - 3} more)` : '';
  return { success: false, code: 'BAD_REQUEST', error: `Bad Request: ${summary}${more}`, details };
}

export type OptionsValidation =
  | { ok: true; options: ParseOptions }
  | { ok: false; body: BadRequestBody };

/** Validates a parse options object (undefined means "no options part": every default). */
export function validateParseOptions(input: unknown): OptionsValidation {
  const result = parseOptionsSchema.safeParse(input === undefined ? {} : input);
  if (result.success) return { ok: true, options: result.data };
  return { ok: false, body: badRequestBody(detailsFromZodError(result.error)) };
}
