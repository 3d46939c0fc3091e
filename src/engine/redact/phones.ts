/**
 * Phone numbers in national and international formats, found and validated by libphonenumber-js (its full
 * metadata, so validity is checked per number range). National numbers are ambiguous, so the text is searched with
 * several default countries. Dates, versions and bare digit runs (order numbers, ids) are what a phone number
 * finder mistakes most; they are refused unless the mode is recall-first and a phone word stands just before.
 */
import { findNumbers } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';
import type { PiiSpan, RedactionMode } from './entities.js';

const DEFAULT_COUNTRIES: readonly CountryCode[] = ['US', 'GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'IN'];
const DATE_SHAPE = /^\(?\d{1,4}[-./ ]\d{1,2}[-./ ]\d{1,4}\)?$/;
const PHONE_WORD = /(?:phone|tel|telephone|mobile|mob|cell|fax|call|whatsapp|contact|ph)\.?\s*(?:no\.?|number|#)?\s*[:.]?\s*$/i;
const DIGIT_RUN = /^\d+$/;

export function findPhones(text: string, mode: RedactionMode): PiiSpan[] {
  if (!/\d{2}/.test(text)) return [];
  const spans = new Map<number, PiiSpan>();
  for (const country of DEFAULT_COUNTRIES) {
    for (const found of findNumbers(text, { defaultCountry: country, v2: true })) {
      if (spans.has(found.startsAt) || !found.number.isValid()) continue;
      const raw = text.slice(found.startsAt, found.endsAt);
      if (!acceptable(text, found.startsAt, found.endsAt, raw, mode)) continue;
      spans.set(found.startsAt, { start: found.startsAt, end: found.endsAt, entity: 'PHONE' });
    }
  }
  return [...spans.values()];
}

function acceptable(text: string, start: number, end: number, raw: string, mode: RedactionMode): boolean {
  // Part of a longer token: an id, a hash, a version, a UUID.
  if (/[\w.\-/]/.test(text[start - 1] ?? '') && !/^[+(]/.test(raw)) return false;
  if (/[\w\-/]/.test(text[end] ?? '') || (text[end] === '.' && /\d/.test(text[end + 1] ?? ''))) return false;
  if (DATE_SHAPE.test(raw)) return false;
  const international = /^(?:\+|00)/.test(raw);
  const digits = raw.replace(/\D/g, '').length;
  if (digits < 7) return false;
  const before = text.slice(Math.max(0, start - 30), start);
  if (DIGIT_RUN.test(raw)) return mode === 'aggressive' && PHONE_WORD.test(before);
  if (international) return true;
  // National numbers: printed with separators; dots alone (1.23.45) are more often versions or amounts.
  return /[ ()-]/.test(raw);
}
