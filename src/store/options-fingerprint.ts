/**
 * A short, stable name for a set of parse options, used in job data and the content index: outputs made with
 * one set of options are reused only for the same options. Computed on validated options (defaults applied),
 * so `{}` and the spelled-out defaults share a fingerprint.
 */
import { createHash } from 'node:crypto';
import { isDefaultSettings, type ProcessingSettings } from '../common/processing-settings.js';
import type { ParseOptions } from '../contract/options.js';

/** Bumping this gives every option set a new fingerprint, should the meaning of stored outputs ever change. */
const FINGERPRINT_VERSION = 'docmill-options/1';
const FINGERPRINT_HEX_LENGTH = 16;

/**
 * 16 hex digits of sha256 over the options as canonical JSON (object keys sorted at every depth), and over the
 * processing settings when any is set: without them the fingerprint is the options' alone, as it always was, so
 * outputs made before settings existed are still found.
 */
export function optionsFingerprint(options: ParseOptions, settings?: ProcessingSettings): string {
  const keyed = isDefaultSettings(settings) ? canonicalJson(options) : canonicalJson({ options, settings });
  return createHash('sha256')
    .update(`${FINGERPRINT_VERSION}\n${keyed}`, 'utf8')
    .digest('hex')
    .slice(0, FINGERPRINT_HEX_LENGTH);
}

/**
 * JSON with object keys in sorted order at every depth; arrays keep their order (it can matter, as in
 * `formats`). Keys whose value is undefined are left out, as JSON.stringify does, so `{a: undefined}` equals `{}`.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const child = (value as Record<string, unknown>)[key];
    if (child !== undefined) sorted[key] = sortKeys(child);
  }
  return sorted;
}
