/**
 * What the redactor finds and how callers ask for it: the contract's entity buckets, spans into a text, and the
 * settings of one redaction (the validated `redactPII` object).
 */
import type { Redaction } from '../../contract/options.js';
import { REDACTION_ENTITIES } from '../../contract/options.js';

export type PiiEntity = (typeof REDACTION_ENTITIES)[number];
export type RedactionMode = Redaction['mode'];

/** A half-open range [start, end) of a text holding one piece of personal data. */
export interface PiiSpan {
  start: number;
  end: number;
  entity: PiiEntity;
}

/** The complete settings `redactPII: true` stands for (spec: "Redaction object" defaults). */
export const DEFAULT_REDACTION: Redaction = Object.freeze({
  mode: 'accurate',
  entities: [...REDACTION_ENTITIES],
  replaceStyle: 'tag',
}) as Redaction;

/** The redaction a validated `redactPII` asks for, or undefined when it asks for none. */
export function redactionOf(redactPII: boolean | Redaction | undefined): Redaction | undefined {
  if (redactPII === undefined || redactPII === false) return undefined;
  return redactPII === true ? DEFAULT_REDACTION : redactPII;
}
