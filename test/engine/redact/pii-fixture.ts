/** The labelled PII set (test/fixtures/pii/): the document, its labels, and which labels each mode must find. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseOptionsSchema, type ParseOptions, type ParseOptionsInput } from '../../../src/contract/options.js';
import type { PiiEntity, RedactionMode } from '../../../src/engine/redact/entities.js';

export interface PiiLabel {
  text: string;
  entity: PiiEntity;
  tier: RedactionMode;
}
interface LabelFile {
  document: string;
  pii: PiiLabel[];
  lookalikes: string[];
}

const FIXTURES = new URL('../../fixtures/pii/', import.meta.url);
export const LABELS = JSON.parse(readFileSync(new URL('incident-report.labels.json', FIXTURES), 'utf8')) as LabelFile;
export const DOCUMENT_PATH = fileURLToPath(new URL(LABELS.document, FIXTURES));
export const DOCUMENT_BYTES = new Uint8Array(readFileSync(DOCUMENT_PATH));

const TIER_ORDER: readonly RedactionMode[] = ['fast', 'accurate', 'aggressive'];

/** The labels a mode promises to find: its own tier and every less recall-oriented one. */
export function labelsFoundBy(mode: RedactionMode, entities?: readonly PiiEntity[]): PiiLabel[] {
  return LABELS.pii.filter(
    (label) => TIER_ORDER.indexOf(label.tier) <= TIER_ORDER.indexOf(mode) && (!entities || entities.includes(label.entity)),
  );
}

export function optionsWith(input: ParseOptionsInput): ParseOptions {
  return parseOptionsSchema.parse(input);
}
