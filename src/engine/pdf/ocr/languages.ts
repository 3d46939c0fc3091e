/**
 * Which tesseract language a document is read in: the language the PDF declares (its catalog's /Lang, as
 * `metadata.language`), when that language's data is installed (`npm install @tesseract.js-data/<code>`, e.g.
 * `@tesseract.js-data/deu`); English, whose data ships with docmill (models/tessdata_fast), otherwise. Never a
 * download.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export const DEFAULT_OCR_LANGUAGE = 'eng';

/** ISO 639-1 (the form /Lang and HTML use) → tesseract's code, for the languages tesseract has data for. */
const TESSERACT_CODE: Record<string, string> = {
  af: 'afr', ar: 'ara', be: 'bel', bg: 'bul', bn: 'ben', ca: 'cat', cs: 'ces', cy: 'cym', da: 'dan', de: 'deu',
  el: 'ell', en: 'eng', es: 'spa', et: 'est', eu: 'eus', fa: 'fas', fi: 'fin', fr: 'fra', ga: 'gle', gl: 'glg',
  he: 'heb', hi: 'hin', hr: 'hrv', hu: 'hun', id: 'ind', is: 'isl', it: 'ita', ja: 'jpn', ko: 'kor', lt: 'lit',
  lv: 'lav', mk: 'mkd', ms: 'msa', mt: 'mlt', nb: 'nor', nl: 'nld', nn: 'nor', no: 'nor', pl: 'pol', pt: 'por',
  ro: 'ron', ru: 'rus', sk: 'slk', sl: 'slv', sq: 'sqi', sr: 'srp', sv: 'swe', sw: 'swa', ta: 'tam', th: 'tha',
  tr: 'tur', uk: 'ukr', ur: 'urd', vi: 'vie', zh: 'chi_sim',
};

const require = createRequire(import.meta.url);

/**
 * The models docmill ships, found from its own package root (a self-reference: the same from src/ and dist/, and
 * once installed): English from tessdata_fast, the model Debian, Ubuntu and Homebrew install with `tesseract`. On
 * the PDF benchmark's image regions and on 300-DPI pages of text it reads the same words as tessdata_best's integer
 * model (`@tesseract.js-data/<code>`) in two thirds of the time (BENCHMARKS.md, sections 6 and 11).
 */
const SHIPPED_MODELS = join('models', 'tessdata_fast');

let shippedFolder: string | null | undefined;

function shippedModels(): string | null {
  if (shippedFolder !== undefined) return shippedFolder;
  try {
    shippedFolder = join(dirname(require.resolve('docmill/package.json')), SHIPPED_MODELS);
  } catch {
    shippedFolder = null;
  }
  return shippedFolder;
}

/** The folder holding `<code>.traineddata.gz` for a tesseract language, or undefined when it is not installed. */
export function languageDataFolder(code: string): string | undefined {
  if (!/^[a-z]{3}(_[a-z]+)?$/.test(code)) return undefined;
  const shipped = shippedModels();
  if (shipped && existsSync(join(shipped, `${code}.traineddata.gz`))) return shipped;
  let root: string;
  try {
    root = dirname(require.resolve(`@tesseract.js-data/${code}/package.json`));
  } catch {
    return undefined;
  }
  // The integer-quantised LSTM model is as accurate for text and about twice as fast; the float one if that is all.
  for (const variant of ['4.0.0_best_int', '4.0.0']) {
    const folder = join(root, variant);
    if (existsSync(join(folder, `${code}.traineddata.gz`))) return folder;
  }
  return undefined;
}

/** The data file of a tesseract language, or undefined when it is not installed. */
export function languageDataFile(code: string): string | undefined {
  const folder = languageDataFolder(code);
  return folder ? join(folder, `${code}.traineddata.gz`) : undefined;
}

/** The codes among `codes` whose data is not installed, in their order. */
export function missingLanguages(codes: readonly string[]): string[] {
  return codes.filter((code) => languageDataFolder(code) === undefined);
}

/** What a reader is told when languages it asked for have no data: the codes and the packages that bring them. */
export function missingLanguagesMessage(missing: readonly string[]): string {
  const packages = missing.map((code) => `@tesseract.js-data/${code}`).join(' ');
  return `no OCR data installed for the requested language${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: npm install ${packages}`;
}

export interface LanguageChoice {
  /** The tesseract code to read in. */
  language: string;
  /** The declared language's code when its data is not installed (the document is read in English instead). */
  missing?: string;
}

/** The language to OCR a document in, from its declared language (`de-DE`, `fr`, `en-GB`...). */
export function ocrLanguageFor(declared: string | undefined): LanguageChoice {
  const primary = declared?.trim().toLowerCase().split(/[-_]/)[0];
  const code = primary ? TESSERACT_CODE[primary] : undefined;
  if (!code || code === DEFAULT_OCR_LANGUAGE) return { language: DEFAULT_OCR_LANGUAGE };
  return languageDataFolder(code) ? { language: code } : { language: DEFAULT_OCR_LANGUAGE, missing: code };
}
