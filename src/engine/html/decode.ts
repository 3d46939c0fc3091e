/**
 * Bytes of an uploaded web page to text. The order follows what browsers do for a file with no HTTP headers:
 * byte-order mark, then the charset the document declares in its first 4 KB (`<meta charset>`, `<meta
 * http-equiv="Content-Type">`, or an XML declaration's `encoding`), then a guess. The guess first checks whether
 * the bytes are valid UTF-8 (by far the most common case, and exact), then asks jschardet; a page it cannot
 * place is read as windows-1252, the encoding legacy pages without a declaration most often use, rather than as
 * UTF-8 full of replacement characters.
 */
import iconv from 'iconv-lite';
import jschardet from 'jschardet';

export type EncodingSource = 'bom' | 'declared' | 'utf8-valid' | 'detected' | 'default';

export interface DecodedText {
  text: string;
  /** The encoding used, as iconv-lite names it (utf-8, windows-1252, macintosh, shift_jis...). */
  encoding: string;
  source: EncodingSource;
}

const PRESCAN_BYTES = 4096;
const DETECT_SAMPLE_BYTES = 64 * 1024;
/** jschardet's confidence below which its answer is not trusted. */
const MIN_CONFIDENCE = 0.2;

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

export function decodeHtmlBytes(bytes: Uint8Array): DecodedText {
  const bom = bomEncoding(bytes);
  if (bom !== null) {
    return { text: iconv.decode(Buffer.from(bytes.subarray(bom.length)), bom.encoding), encoding: bom.encoding, source: 'bom' };
  }
  const declared = declaredCharset(bytes);
  if (declared !== null) {
    // A page declared UTF-8 whose bytes are not UTF-8 was mislabelled: guess instead of filling it with U+FFFD.
    if (declared !== 'utf-8' || isValidUtf8(bytes)) {
      return { text: iconv.decode(Buffer.from(bytes), declared), encoding: declared, source: 'declared' };
    }
  }
  if (isValidUtf8(bytes)) {
    return { text: new TextDecoder('utf-8').decode(bytes), encoding: 'utf-8', source: 'utf8-valid' };
  }
  const detected = detectEncoding(bytes);
  if (detected !== null) {
    return { text: iconv.decode(Buffer.from(bytes), detected), encoding: detected, source: 'detected' };
  }
  return { text: iconv.decode(Buffer.from(bytes), 'windows-1252'), encoding: 'windows-1252', source: 'default' };
}

function bomEncoding(bytes: Uint8Array): { encoding: string; length: number } | null {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { encoding: 'utf-8', length: 3 };
  }
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return null;
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

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function detectEncoding(bytes: Uint8Array): string | null {
  const sample = bytes.subarray(0, DETECT_SAMPLE_BYTES);
  const result = jschardet.detect(Buffer.from(sample));
  if (!result.encoding || result.confidence < MIN_CONFIDENCE) {
    // Low confidence: jschardet still names the single-byte family it leans to; trust it only for windows-125x.
    if (result.encoding && /^windows-125\d$/i.test(result.encoding)) return normaliseLabel(result.encoding);
    return null;
  }
  return normaliseLabel(result.encoding === 'MacRoman' ? 'macintosh' : result.encoding);
}
