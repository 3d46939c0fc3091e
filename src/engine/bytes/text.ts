/**
 * The engine's one text decoder: bytes → text with the encoding found from the bytes, for every text format (the
 * detector, whether bytes are text at all, is text-detect.ts, kept apart so that sniffing loads no charset tables):
 *
 * 1. a byte-order mark: UTF-8 (EF BB BF), UTF-16 LE (FF FE), UTF-16 BE (FE FF);
 * 2. the encoding the document declares, when the caller found one (an HTML `<meta charset>`), unless it declares
 *    UTF-8 and the bytes are not UTF-8 (a mislabelled page is better guessed than filled with U+FFFD), or declares
 *    a legacy encoding and the bytes are UTF-8 with non-ASCII characters (mislabelled the other way: read as UTF-8);
 * 3. UTF-16 without a BOM, recognised by its NUL pattern (ASCII text in UTF-16 has a zero in every other byte);
 * 4. valid UTF-8 (which includes plain ASCII);
 * 5. otherwise a legacy encoding guessed by jschardet from the lines that hold non-ASCII bytes (restricted to its
 *    "modern web" era: windows-125x, KOI8, the CJK multi-byte ones; with every era allowed, French windows-1252
 *    text comes back as DOS Hebrew cp862) and decoded by iconv-lite. On short Western text jschardet's scores for
 *    windows-1250/1252/1253/1257 are nearly equal, so each guess is also decoded and judged by whether its words
 *    make sense (no word mixing Latin and Greek letters, no Latin word made only of accented letters); among the
 *    sensible readings windows-1252 (the usual encoding of non-UTF-8 text written on Windows in the West) is
 *    preferred unless another encoding scores clearly higher; a guess with almost no evidence behind it also falls
 *    back to windows-1252. ISO-8859-1 is read as windows-1252, its superset (as browsers do),
 *    so € and curly quotes survive. jschardet is loaded for a run of guesses and let go of after it
 *    (chardet-loader.ts): its models are 22 MB.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';
import { chardetForGuess } from './chardet-loader.js';
import { repairDoubleEncoding } from './mojibake.js';
import { utf16ByNulPattern } from './text-detect.js';

export { looksLikeText, textHead } from './text-detect.js';

export interface DecodedText {
  text: string;
  /** The encoding used, lower-case: utf-8, utf-16le, utf-16be, windows-1252... */
  encoding: string;
  /** How it was chosen. */
  detectedBy: 'bom' | 'declared' | 'nul-pattern' | 'utf-8' | 'guess';
  /** Characters restored (mojibake.ts): text encoded twice turned back, C1 controls read as windows-1252; absent when none. */
  repairedRuns?: number;
}

export interface DecodeOptions {
  /** An encoding the document declares (iconv-lite name), tried after the BOM. */
  declared?: string | null;
}

/** Bytes of non-ASCII context handed to jschardet (it is slow on whole files). */
const GUESS_SAMPLE_BYTES = 64 * 1024;
/**
 * Below this jschardet confidence a guess is noise: two accented letters ("é,€") score 0.003 for Hebrew
 * windows-1255, while a line of real French, Czech or Russian text scores 0.02 to 0.2 for the right encoding.
 */
const MIN_CONFIDENCE = 0.01;
const FALLBACK_ENCODING = 'windows-1252';
/** windows-1252 is chosen when its confidence is at least this share of the best guess's. */
const WESTERN_MARGIN = 0.75;
/** jschardet guesses that are decoded and weighed. */
const MAX_CANDIDATES = 8;

export function decodeText(bytes: Uint8Array, options: DecodeOptions = {}): DecodedText {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (startsWith(buffer, [0xef, 0xbb, 0xbf])) return utf8Text(buffer.toString('utf8', 3), 'bom');
  if (startsWith(buffer, [0xff, 0xfe])) {
    return { text: decodeUtf16Le(buffer.subarray(2)), encoding: 'utf-16le', detectedBy: 'bom' };
  }
  if (startsWith(buffer, [0xfe, 0xff])) {
    return { text: iconv.decode(buffer.subarray(2), 'utf-16be'), encoding: 'utf-16be', detectedBy: 'bom' };
  }
  const declared = options.declared;
  if (declared === 'utf-8' && isUtf8(buffer)) return utf8Text(iconv.decode(buffer, declared), 'declared');
  // A legacy encoding declared over bytes that are UTF-8 with non-ASCII characters in them is the page's template
  // speaking, not its text: text in a legacy encoding is next to never valid UTF-8.
  if (declared && declared !== 'utf-8' && iconv.encodingExists(declared) && !(isUtf8(buffer) && !isAscii(buffer))) {
    return { text: iconv.decode(buffer, declared), encoding: declared, detectedBy: 'declared' };
  }
  const utf16 = utf16ByNulPattern(buffer);
  if (utf16 === 'utf-16le') return { text: decodeUtf16Le(buffer), encoding: utf16, detectedBy: 'nul-pattern' };
  if (utf16 === 'utf-16be') {
    return { text: stripBom(iconv.decode(buffer, 'utf-16be')), encoding: utf16, detectedBy: 'nul-pattern' };
  }
  if (isUtf8(buffer)) return utf8Text(buffer.toString('utf8'), 'utf-8');
  const encoding = guessLegacyEncoding(buffer);
  return { text: stripBom(iconv.decode(buffer, encoding)), encoding, detectedBy: 'guess' };
}

/** Text read as UTF-8, with what had been encoded twice turned back. */
function utf8Text(text: string, detectedBy: DecodedText['detectedBy']): DecodedText {
  const repaired = repairDoubleEncoding(text);
  const decoded: DecodedText = { text: repaired.text, encoding: 'utf-8', detectedBy };
  if (repaired.runs > 0) decoded.repairedRuns = repaired.runs;
  return decoded;
}

/**
 * What a reader of the result is told of its decoding: a guessed encoding (when `detectedBy` is given), characters
 * that had been encoded twice.
 */
export function decodingWarnings(decoded: Partial<Pick<DecodedText, 'detectedBy' | 'encoding' | 'repairedRuns'>>): string[] {
  const warnings: string[] = [];
  if (decoded.detectedBy === 'guess') warnings.push(`The file is not UTF-8; it was read as ${decoded.encoding} (detected).`);
  if (decoded.repairedRuns) {
    warnings.push(`The text had been encoded twice (read in a wrong encoding and saved again as UTF-8): ${decoded.repairedRuns} characters were restored.`);
  }
  return warnings;
}

function startsWith(buffer: Buffer, prefix: number[]): boolean {
  return buffer.length >= prefix.length && prefix.every((byte, index) => buffer[index] === byte);
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function decodeUtf16Le(buffer: Buffer): string {
  // An odd trailing byte cannot be a UTF-16 code unit; Buffer#toString drops it.
  return stripBom(buffer.toString('utf16le'));
}

/** Up to GUESS_SAMPLE_BYTES of the lines that hold non-ASCII bytes: that is where encodings differ. */
function nonAsciiSample(buffer: Buffer): Buffer {
  const pieces: Buffer[] = [];
  let taken = 0;
  let index = 0;
  while (index < buffer.length && taken < GUESS_SAMPLE_BYTES) {
    let high = index;
    while (high < buffer.length && (buffer[high] ?? 0) < 0x80) high += 1;
    if (high >= buffer.length) break;
    const lineStart = Math.max(buffer.lastIndexOf(0x0a, high) + 1, index);
    let lineEnd = buffer.indexOf(0x0a, high);
    if (lineEnd === -1) lineEnd = buffer.length;
    const piece = buffer.subarray(lineStart, Math.min(lineEnd + 1, lineStart + GUESS_SAMPLE_BYTES - taken));
    pieces.push(piece);
    taken += piece.length;
    index = lineEnd + 1;
  }
  return Buffer.concat(pieces);
}

function guessLegacyEncoding(buffer: Buffer): string {
  const sample = nonAsciiSample(buffer);
  const evidence = sample.length > 0 ? sample : buffer.subarray(0, GUESS_SAMPLE_BYTES);
  const chardet = chardetForGuess();
  const guesses = chardet
    .detectAll(evidence, { encodingEra: chardet.EncodingEra.MODERN_WEB })
    .map((guess) => ({ name: normaliseEncodingName(guess.encoding), confidence: guess.confidence }))
    .filter((guess): guess is { name: string; confidence: number } =>
      guess.name !== null && guess.name !== 'utf-8' && iconv.encodingExists(guess.name),
    )
    .filter((guess, index, all) => all.findIndex((other) => other.name === guess.name) === index)
    .filter((guess) => guess.confidence >= MIN_CONFIDENCE)
    .slice(0, MAX_CANDIDATES)
    .map((guess) => {
      const text = iconv.decode(evidence, guess.name);
      return { ...guess, text, implausible: implausibleShare(text) };
    });
  if (guesses.length === 0) return FALLBACK_ENCODING;
  // Keep the readings that make the most sense as words, then take the most confident of them; short Western
  // text scores about the same for windows-1250/1252/1257, so windows-1252 (the West's encoding) wins unless
  // another is clearly ahead (Czech windows-1250 text scores twice its windows-1252 reading).
  const fewest = Math.min(...guesses.map((guess) => guess.implausible));
  const plausible = guesses
    .filter((guess) => guess.implausible <= fewest + 0.05)
    .sort((a, b) => b.confidence - a.confidence);
  const top = plausible[0];
  if (!top) return FALLBACK_ENCODING;
  const western = plausible.find((guess) => guess.name === FALLBACK_ENCODING);
  if (western && western.confidence >= top.confidence * WESTERN_MARGIN) return FALLBACK_ENCODING;
  // German or Spanish text uses only letters that windows-1250, 1252 and 1257 place alike: any of them reads it the
  // same, and the name the user is told is then the one such files are written in.
  if (top.text === (western?.text ?? iconv.decode(evidence, FALLBACK_ENCODING))) return FALLBACK_ENCODING;
  return top.name;
}

const SCRIPTS = [
  /\p{Script=Latin}/u,
  /\p{Script=Greek}/u,
  /\p{Script=Cyrillic}/u,
  /\p{Script=Hebrew}/u,
  /\p{Script=Arabic}/u,
  /\p{Script=Thai}/u,
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u,
];

/**
 * Among the words with a non-ASCII letter, the share that no language writes: letters of two scripts in one word
 * (French read as Greek windows-1253 gives "Cafι"), or three or more Latin letters with no ASCII one among them
 * (Russian read as windows-1252 gives "Èâàí").
 */
function implausibleShare(text: string): number {
  let words = 0;
  let implausible = 0;
  for (const [word] of text.matchAll(/\p{L}+/gu)) {
    if (!/[^\p{ASCII}]/u.test(word)) continue;
    words += 1;
    const scripts = SCRIPTS.filter((script) => script.test(word)).length;
    if (scripts > 1 || (scripts === 1 && word.length >= 3 && SCRIPTS[0]?.test(word) && !/[A-Za-z]/.test(word))) {
      implausible += 1;
    }
  }
  return words === 0 ? 0 : implausible / words;
}

function normaliseEncodingName(name: string | null | undefined): string | null {
  if (!name) return null;
  const lower = name.toLowerCase().replace(/_/g, '-');
  if (lower === 'ascii' || lower === 'iso-8859-1' || lower === 'iso8859-1' || lower === 'latin1') return FALLBACK_ENCODING;
  const iso = /^iso-?8859-(\d+)$/.exec(lower);
  if (iso) return `iso-8859-${iso[1]}`;
  if (lower === 'shift-jis') return 'shift_jis';
  return lower;
}
