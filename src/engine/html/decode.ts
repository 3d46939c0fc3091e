/**
 * Bytes of an uploaded web page to text. The order follows what browsers do for a file with no HTTP headers:
 * byte-order mark, then the charset the document declares in its first 4 KB (`<meta charset>`, `<meta
 * http-equiv="Content-Type">`, or an XML declaration's `encoding`), then a guess. Everything but the declaration
 * is the engine's one text decoder (bytes/text.ts): valid UTF-8 (by far the most common case, and exact), then
 * jschardet with a plausibility check, windows-1252 when nothing stands out (the encoding legacy pages without a
 * declaration most often use) rather than UTF-8 full of replacement characters.
 */
import iconv from 'iconv-lite';
import { decodeText } from '../bytes/text.js';

export type EncodingSource = 'bom' | 'declared' | 'utf8-valid' | 'detected';

export interface DecodedText {
  text: string;
  /** The encoding used, as iconv-lite names it (utf-8, windows-1252, macintosh, shift_jis...). */
  encoding: string;
  source: EncodingSource;
  /** Characters restored (bytes/mojibake.ts): text encoded twice turned back, C1 controls read as windows-1252. */
  repairedRuns?: number;
}

const PRESCAN_BYTES = 4096;

/**
 * WHATWG aliases that differ from what iconv-lite would do with the label: browsers read Latin-1 and ASCII as
 * windows-1252 (which only adds characters in 0x80..0x9F), and a page declaring UTF-16 in ASCII-compatible
 * markup is really UTF-8 (a real UTF-16 page is caught by its BOM first).
 */
const LABEL_OVERRIDES: Record<string, string> = {
  'iso-8859-1': 'windows-1252',
  'iso8859-1': 'windows-1252',
  latin1: 'windows-1252',
  'latin-1': 'windows-1252',
  'us-ascii': 'windows-1252',
  ascii: 'windows-1252',
  'utf-16': 'utf-8',
  'utf-16le': 'utf-8',
  'utf-16be': 'utf-8',
  'x-user-defined': 'windows-1252',
  'x-mac-roman': 'macintosh',
  'x-mac-cyrillic': 'maccyrillic',
  unicode: 'utf-8',
  'unicode-1-1-utf-8': 'utf-8',
  utf8: 'utf-8',
};

const SOURCES: Record<ReturnType<typeof decodeText>['detectedBy'], EncodingSource> = {
  bom: 'bom',
  declared: 'declared',
  'nul-pattern': 'detected',
  'utf-8': 'utf8-valid',
  guess: 'detected',
};

export function decodeHtmlBytes(bytes: Uint8Array): DecodedText {
  const decoded = decodeText(bytes, { declared: declaredCharset(bytes) });
  const html: DecodedText = { text: decoded.text, encoding: decoded.encoding, source: SOURCES[decoded.detectedBy] };
  if (decoded.repairedRuns) html.repairedRuns = decoded.repairedRuns;
  return html;
}

/** The charset the markup declares in its first 4 KB, normalised and known to iconv-lite, or null. */
export function declaredCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.subarray(0, PRESCAN_BYTES)).toString('latin1');
  // Comments may hold stale declarations (Office writes conditional comments); ignore them.
  const markup = head.replace(/<!--[\s\S]*?(?:-->|$)/g, '');
  const candidates: string[] = [];
  for (const match of markup.matchAll(/<meta\b[^>]*>/gi)) {
    const tag = match[0];
    const direct = /\bcharset\s*=\s*["']?\s*([^\s"'/>;]+)/i.exec(tag);
    if (direct?.[1] !== undefined) candidates.push(direct[1]);
  }
  const xml = /^\s*<\?xml\b[^>]*\bencoding\s*=\s*["']([^"']+)["']/i.exec(head);
  if (xml?.[1] !== undefined) candidates.push(xml[1]);
  for (const candidate of candidates) {
    const normalised = normaliseLabel(candidate);
    if (normalised !== null) return normalised;
  }
  return null;
}

export function normaliseLabel(label: string): string | null {
  const lower = label.trim().toLowerCase();
  if (lower === '') return null;
  const mapped = LABEL_OVERRIDES[lower] ?? lower;
  return iconv.encodingExists(mapped) ? mapped : null;
}

