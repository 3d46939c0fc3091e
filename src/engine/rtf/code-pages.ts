/**
 * The code pages of RTF text bytes: the document's (`\ansicpg`, or the character set word `\ansi` `\mac` `\pc`
 * `\pca`) and each font's (`\fcharset`, or an explicit `\cpg`, in the font table), and decoding through iconv-lite.
 *
 * Double-byte code pages (Shift-JIS, GBK, Korean, Big5) must see a character's lead and trail bytes together: the
 * reader collects consecutive bytes of one code page before calling decodeBytes, never one `\'hh` at a time.
 */
import iconv from 'iconv-lite';

/**
 * `\fcharsetN` → code page. 0 (ANSI) is Windows-1252 whatever the document's `\ansicpg` (as Word, LibreOffice and
 * macOS TextEdit read it: TextEdit writes `\ansicpg950` with Latin fonts in charset 0); 1 (default) and 2 (symbol)
 * use the document's code page.
 */
const CODE_PAGE_BY_CHARSET: ReadonlyMap<number, number> = new Map([
  [0, 1252],
  [77, 10000], // Mac Roman
  [78, 10001], // Mac Japanese
  [79, 10003], // Mac Korean
  [80, 10008], // Mac simplified Chinese
  [81, 10002], // Mac traditional Chinese
  [85, 10006], // Mac Greek
  [86, 10081], // Mac Turkish
  [87, 10021], // Mac Thai
  [88, 10029], // Mac Central European
  [89, 10007], // Mac Cyrillic
  [128, 932], // Shift-JIS
  [129, 949], // Korean (Hangul)
  [130, 1361], // Korean (Johab)
  [134, 936], // GBK (simplified Chinese)
  [136, 950], // Big5 (traditional Chinese)
  [161, 1253], // Greek
  [162, 1254], // Turkish
  [163, 1258], // Vietnamese
  [177, 1255], // Hebrew
  [178, 1256], // Arabic
  [186, 1257], // Baltic
  [204, 1251], // Cyrillic
  [222, 874], // Thai
  [238, 1250], // Central European
  [254, 437], // PC 437
]);

/** The code page a font's `\fcharsetN` names, or null when it means "the document's code page". */
export function codePageOfCharset(charset: number): number | null {
  return CODE_PAGE_BY_CHARSET.get(charset) ?? null;
}

/**
 * Code pages iconv-lite knows by another name than `cpN`. The Mac double-byte code pages are read as the Windows
 * code page of the same script (Mac Japanese extends Shift-JIS, and so on).
 */
const ENCODING_NAMES: ReadonlyMap<number, string> = new Map([
  [10000, 'macintosh'],
  [10001, 'cp932'],
  [10002, 'cp950'],
  [10003, 'cp949'],
  [10006, 'macgreek'],
  [10007, 'maccyrillic'],
  [10008, 'cp936'],
  [10010, 'macromania'],
  [10017, 'macukraine'],
  [10021, 'macthai'],
  [10029, 'maccenteuro'],
  [10079, 'maciceland'],
  [10081, 'macturkish'],
  [10082, 'maccroatian'],
  [20127, 'ascii'],
  [28591, 'latin1'],
  [65001, 'utf8'],
]);

const DEFAULT_CODE_PAGE = 1252;

const resolvedEncodings = new Map<number, string>();

/** The iconv-lite name for a code page, falling back to Windows-1252 for one it does not know. */
export function encodingOf(codePage: number): string {
  let encoding = resolvedEncodings.get(codePage);
  if (encoding === undefined) {
    const name = ENCODING_NAMES.get(codePage) ?? `cp${codePage}`;
    encoding = iconv.encodingExists(name) ? name : `cp${DEFAULT_CODE_PAGE}`;
    resolvedEncodings.set(codePage, encoding);
  }
  return encoding;
}

export function isKnownCodePage(codePage: number): boolean {
  return iconv.encodingExists(ENCODING_NAMES.get(codePage) ?? `cp${codePage}`);
}

/** Decodes text bytes in a code page. Pure ASCII, the common case, skips iconv. */
export function decodeBytes(bytes: Uint8Array, codePage: number): string {
  let ascii = '';
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index] as number;
    // Without a byte above 0x7f there is no lead byte either, so this holds for double-byte code pages too.
    if (byte >= 0x80) return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), encodingOf(codePage));
    if (index < SHORT_RUN) ascii += String.fromCharCode(byte);
  }
  return bytes.length <= SHORT_RUN ? ascii : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** Runs up to this length are built directly: cheaper than a Buffer for the short runs RTF writers produce. */
const SHORT_RUN = 32;

/** `\ansi` `\mac` `\pc` `\pca`: the document character sets that name a code page. */
export const CODE_PAGE_BY_CHARACTER_SET: ReadonlyMap<string, number> = new Map([
  ['ansi', DEFAULT_CODE_PAGE],
  ['mac', 10000],
  ['pc', 437],
  ['pca', 850],
]);

export { DEFAULT_CODE_PAGE };
