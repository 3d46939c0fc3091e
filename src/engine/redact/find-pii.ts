/**
 * One redaction's finder: runs the detectors its mode and entities call for over a text and returns disjoint
 * spans. Inside URLs only what a URL can leak is kept (an address after mailto:, a number after tel:, a key or card
 * in a query), so links keep working. Overlapping finds merge, so a span is never left half hidden.
 */
import type { Redaction } from '../../contract/options.js';
import { findAddresses } from './addresses.js';
import { findEmails } from './emails.js';
import type { PiiEntity, PiiSpan } from './entities.js';
import { findCards, findIbans } from './financial.js';
import { findPeopleAndPlaces, loadNlp } from './people-places.js';
import { findPhones } from './phones.js';
import { findSecrets } from './secrets.js';

export type PiiFinder = (text: string) => PiiSpan[];

const URL_PATTERN = /\b(?:https?:\/\/|www\.|mailto:|tel:|ftp:\/\/)[^\s<>()"'`\]]+/gi;
const SAFE_IN_URLS: ReadonlySet<PiiEntity> = new Set(['EMAIL', 'SECRET', 'FINANCIAL']);
/** Which find wins when merged spans disagree on the bucket at equal length. */
const PRIORITY: readonly PiiEntity[] = ['SECRET', 'FINANCIAL', 'EMAIL', 'PHONE', 'PERSON', 'LOCATION'];

export async function createPiiFinder(redaction: Redaction): Promise<PiiFinder> {
  const { mode } = redaction;
  const wanted = new Set<PiiEntity>(redaction.entities);
  const usesModel = mode !== 'fast' && (wanted.has('PERSON') || wanted.has('LOCATION'));
  const nlp = usesModel ? await loadNlp() : undefined;
  const modelWants = { person: wanted.has('PERSON'), location: wanted.has('LOCATION') };

  return (text: string): PiiSpan[] => {
    // Every heuristic runs even for unwanted buckets: a card must not be half-redacted as a phone number.
    const heuristic = [...findSecrets(text), ...findEmails(text), ...findCards(text, mode), ...findIbans(text), ...findPhones(text, mode)];
    const unwanted = heuristic.filter((span) => !wanted.has(span.entity));
    const found = heuristic.filter((span) => wanted.has(span.entity) && !insideUnwanted(span, unwanted));
    if (nlp) found.push(...findPeopleAndPlaces(nlp, text, mode, modelWants));
    if (mode === 'aggressive' && wanted.has('LOCATION')) found.push(...findAddresses(text));
    return mergeSpans(outsideUrls(text, found));
  };
}

function insideUnwanted(span: PiiSpan, unwanted: readonly PiiSpan[]): boolean {
  return unwanted.some((other) => other.start <= span.start && other.end >= span.end && other.end - other.start > span.end - span.start);
}

function outsideUrls(text: string, spans: PiiSpan[]): PiiSpan[] {
  const urls = [...text.matchAll(URL_PATTERN)].map((match) => ({ start: match.index, end: match.index + match[0].length, tel: /^tel:/i.test(match[0]) }));
  if (urls.length === 0) return spans;
  // One sweep over both, in text order: URLs never overlap each other.
  const ordered = [...spans].sort((a, b) => a.start - b.start);
  const kept: PiiSpan[] = [];
  let next = 0;
  for (const span of ordered) {
    while (next < urls.length && (urls[next]?.end ?? 0) <= span.start) next += 1;
    const url = urls[next];
    const inside = url !== undefined && url.start < span.end;
    if (!inside || SAFE_IN_URLS.has(span.entity) || (url.tel && span.entity === 'PHONE')) kept.push(span);
  }
  return kept;
}

/** Disjoint spans in text order; overlapping ones become their union, named after the longest. */
export function mergeSpans(spans: readonly PiiSpan[]): PiiSpan[] {
  const ordered = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: PiiSpan[] = [];
  let longest = 0;
  for (const span of ordered) {
    const last = merged[merged.length - 1];
    if (last && span.start < last.end) {
      const length = span.end - span.start;
      if (length > longest || (length === longest && PRIORITY.indexOf(span.entity) < PRIORITY.indexOf(last.entity))) {
        last.entity = span.entity;
        longest = length;
      }
      last.end = Math.max(last.end, span.end);
    } else {
      merged.push({ ...span });
      longest = span.end - span.start;
    }
  }
  return merged;
}
