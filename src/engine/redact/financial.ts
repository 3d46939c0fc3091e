/**
 * Payment card numbers (13 to 19 digits, Luhn-checked) and IBANs (mod-97 checked, length per country). The check
 * digits are what keep order numbers, ISBNs and tracking numbers out.
 */
import { ibanValid, IBAN_LENGTHS, luhnValid } from './checksums.js';
import type { PiiSpan, RedactionMode } from './entities.js';

/**
 * Digits in groups split by single spaces or dashes, not touching other digits, letters or dashes, and not the
 * digits after an IBAN's country code and check digits.
 */
const CARD_CANDIDATE = /(?<![\w-])(?<![A-Z]{2}\d{2} )\d(?:[ -]?\d){12,18}(?![\w-])/g;
/** Issuer prefixes of the card networks (Visa 4, Mastercard 2/5, Amex 34/37, Diners 30/36/38, JCB 35, Discover 6). */
const ISSUER_PREFIX = /^(?:4|5[1-5]|2[2-7]|3[0478]|35|6)/;
/** Lengths each network issues (Amex 15, Visa 13/16/19...). */
const NETWORK_LENGTHS: readonly (readonly [RegExp, readonly number[]])[] = [
  [/^3[47]/, [15]],
  [/^3[068]/, [14, 15, 16, 17, 18, 19]],
  [/^35/, [16, 17, 18, 19]],
  [/^4/, [13, 16, 19]],
  [/^(?:5|2)/, [16]],
  [/^6/, [16, 17, 18, 19]],
];
/** How card numbers are printed: one block, or groups of four (Amex 4-6-5). */
const CARD_GROUPING = /^(?:\d+|\d{4}([ -])\d{4}(?:\1\d{4}){1,2}(?:\1\d{1,4})?|\d{4}([ -])\d{6}\2\d{4,5})$/;

export function findCards(text: string, mode: RedactionMode): PiiSpan[] {
  const spans: PiiSpan[] = [];
  for (const match of text.matchAll(CARD_CANDIDATE)) {
    const digits = match[0].replace(/[ -]/g, '');
    if (digits.length < 13 || digits.length > 19 || !luhnValid(digits)) continue;
    // Recall first takes any Luhn-valid run; otherwise it must also look like a card.
    if (mode !== 'aggressive' && !(ISSUER_PREFIX.test(digits) && issuedLength(digits) && CARD_GROUPING.test(match[0]))) continue;
    spans.push({ start: match.index, end: match.index + match[0].length, entity: 'FINANCIAL' });
  }
  return spans;
}

function issuedLength(digits: string): boolean {
  const network = NETWORK_LENGTHS.find(([prefix]) => prefix.test(digits));
  return network !== undefined && network[1].includes(digits.length);
}

const IBAN_START = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?=[ ]?[A-Z0-9])/g;

export function findIbans(text: string): PiiSpan[] {
  const spans: PiiSpan[] = [];
  for (const match of text.matchAll(IBAN_START)) {
    const length = IBAN_LENGTHS[match[0].slice(0, 2)];
    if (length === undefined) continue;
    const end = ibanEnd(text, match.index, length);
    if (end === undefined) continue;
    const compact = text.slice(match.index, end).replace(/ /g, '');
    if (ibanValid(compact)) spans.push({ start: match.index, end, entity: 'FINANCIAL' });
  }
  return spans;
}

/** Where an IBAN of `length` characters starting at `start` ends, allowing single spaces between characters. */
function ibanEnd(text: string, start: number, length: number): number | undefined {
  let taken = 0;
  let index = start;
  while (taken < length && index < text.length) {
    const char = text[index] as string;
    if (/[A-Z0-9]/.test(char)) {
      taken += 1;
      index += 1;
    } else if (char === ' ' && taken > 0 && /[A-Z0-9]/.test(text[index + 1] ?? '')) {
      index += 1;
    } else {
      return undefined;
    }
  }
  // Longer runs of characters are something else that merely starts like an IBAN.
  if (taken < length || /[A-Za-z0-9]/.test(text[index] ?? '')) return undefined;
  return index;
}
