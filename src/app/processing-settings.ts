/**
 * The library's parse options checked against the contract, and its processing options (ocrLanguages, chunks, images)
 * turned into the settings that are fingerprinted and queued with the jobs: all before anything is queued or sent.
 */
import { OptionsValidationError } from '../backend/errors.js';
import type { ParseBackend } from '../backend/parse-backend.js';
import { DEFAULT_IMAGE_DPI, MAX_IMAGE_DPI, MIN_IMAGE_DPI, type ProcessingSettings } from '../common/processing-settings.js';
import { integerSetting, InvalidSettingError } from '../config/numbers.js';
import type { ParseOptions, ParseOptionsInput } from '../contract/options.js';
import { validateParseOptions } from '../contract/validation.js';
import { checkOcrLanguages, LocalParseEngine } from '../engine/local-engine.js';
import { optionsFingerprint } from '../store/options-fingerprint.js';
import { DEFAULTS, type ProcessingOptions } from './options.js';

export type { ChunkSettings } from '../common/processing-settings.js';

const TESSERACT_CODE = /^[a-z]{3}(_[a-z]{2,8})?$/;
/** Far above any embedding model's window: a budget beyond it is a typo. */
const MAX_CHUNK_TOKENS = 100_000;

export interface ValidatedOptions {
  options: ParseOptions;
  settings: ProcessingSettings;
  /** Keys the outputs: the same options and settings give the same fingerprint. */
  fingerprint: string;
}

/** Options validated against the contract before anything is queued or sent, with docmill's processing settings. */
export function validatedOptions(input: ParseOptionsInput | undefined, settings: ProcessingSettings = {}): ValidatedOptions {
  const validation = validateParseOptions(input ?? {});
  if (!validation.ok) throw new OptionsValidationError(validation.body.details);
  return { options: validation.options, settings, fingerprint: optionsFingerprint(validation.options, settings) };
}

export function processingSettingsFrom(options: ProcessingOptions): ProcessingSettings {
  const settings: ProcessingSettings = {};
  if (options.ocrLanguages !== undefined) settings.ocrLanguages = ocrLanguages(options.ocrLanguages);
  if (options.chunks !== undefined && options.chunks !== false) {
    const chunks = options.chunks === true ? {} : options.chunks;
    const maxTokens = integerSetting(chunks.maxTokens ?? DEFAULTS.chunkMaxTokens, 'chunk tokens', { max: MAX_CHUNK_TOKENS });
    const overlapTokens = integerSetting(chunks.overlapTokens ?? DEFAULTS.chunkOverlapTokens, 'chunk overlap', { min: 0 });
    if (overlapTokens >= maxTokens) {
      throw new InvalidSettingError(`chunk overlap must be smaller than the chunk tokens (${overlapTokens} >= ${maxTokens})`);
    }
    settings.chunks = { maxTokens, overlapTokens };
  }
  Object.assign(settings, pictureSettings(options));
  return settings;
}

/** `images`, `pageImages` (which writes pictures too) and `imageDpi`, which has no meaning without one of them. */
function pictureSettings(options: Pick<ProcessingOptions, 'images' | 'imageDpi' | 'pageImages'>): ProcessingSettings {
  const settings: ProcessingSettings = {};
  if (options.images === true || options.pageImages === true) settings.images = true;
  if (options.pageImages === true) settings.pageImages = true;
  if (options.imageDpi !== undefined) {
    if (!settings.images) throw new InvalidSettingError('imageDpi is the resolution of the pictures written with images or pageImages: turn one on');
    const dpi = integerSetting(options.imageDpi, 'imageDpi (--image-dpi)', { min: MIN_IMAGE_DPI, max: MAX_IMAGE_DPI });
    // The default is left out, so a run that spells it out keeps the fingerprint of one that does not.
    if (dpi !== DEFAULT_IMAGE_DPI) settings.imageDpi = dpi;
  }
  return settings;
}

/**
 * The OCR languages against the local engine, before the first document: a language without data stops the start
 * (ENGINE_OCR_LANGUAGE_MISSING, naming the package). A remote API has no such option: its client says so once.
 */
export function checkOcrLanguagesFor(backend: ParseBackend, settings: ProcessingSettings): void {
  if (settings.ocrLanguages && backend instanceof LocalParseEngine) checkOcrLanguages(settings.ocrLanguages);
}

function ocrLanguages(codes: string[]): string[] {
  const cleaned = codes.map((code) => code.trim().toLowerCase()).filter(Boolean);
  if (cleaned.length === 0) throw new InvalidSettingError('ocrLanguages must name at least one tesseract language (eng, deu...)');
  for (const code of cleaned) {
    if (!TESSERACT_CODE.test(code)) {
      throw new InvalidSettingError(`OCR language "${code}" is not a tesseract language code (eng, deu, chi_sim...)`);
    }
  }
  return [...new Set(cleaned)];
}
