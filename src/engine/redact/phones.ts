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

/**
 * Stretches of text a phone number could be in: digits with the separators numbers are printed with, at least 7
 * digits in all. libphonenumber-js only sees these (with a little context before), not the whole text: searching
 * a long text once per default country costs seconds per 100 KB.
 */
const CANDIDATE = /(?:\+|\b)[\d(][\d \t()./-]{5,30}\d/g;
const CONTEXT = 8;
/** National significant numbers have at most 14 digits with a trunk prefix (E.164 allows 15 with the country code). */
const MAX_NATIONAL_DIGITS = 14;

export function findPhones(text: string, mode: RedactionMode): PiiSpan[] {
  const spans = new Map<number, PiiSpan>();
  for (const candidate of text.matchAll(CANDIDATE)) {
    const digits = candidate[0].match(/\d/g)?.length ?? 0;
    const international = /^(?:\+|00)/.test(candidate[0]);
    // Dates, and national runs longer than any national number (order references), never reach the parser.
    if (digits < 7 || DATE_SHAPE.test(candidate[0].trim()) || (!international && digits > MAX_NATIONAL_DIGITS)) continue;
    const windowStart = Math.max(0, candidate.index - CONTEXT);
    const window = text.slice(windowStart, candidate.index + candidate[0].length);
    // The country code decides an international number; a national one is tried country by country until one fits.
    for (const country of international ? DEFAULT_COUNTRIES.slice(0, 1) : DEFAULT_COUNTRIES) {
      let fits = false;
      for (const found of findNumbers(window, { defaultCountry: country, v2: true })) {
        const start = windowStart + found.startsAt;
        const end = windowStart + found.endsAt;
        if (spans.has(start) || !found.number.isValid()) continue;
        if (!acceptable(text, start, end, text.slice(start, end), mode)) continue;
        spans.set(start, { start, end, entity: 'PHONE' });
        fits = true;
      }
      if (fits) break;
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
