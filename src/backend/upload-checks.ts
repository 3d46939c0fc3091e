/**
 * Checks made before any byte is sent or parsed, shared by the remote client and the local engine:
 * valid options, a supported extension, at most 50 MiB.
 */
import { contentTypeFor, extensionOf, SUPPORTED_EXTENSIONS } from '../contract/extensions.js';
import { MAX_FILE_BYTES } from '../contract/limits.js';
import type { ParseOptions, ParseOptionsInput } from '../contract/options.js';
import { validateParseOptions } from '../contract/validation.js';
import { FileTooLargeError, InvalidSourceError, kindOf, OptionsValidationError, UnsupportedFileError } from './errors.js';
import type { UploadSource } from './upload-source.js';

/**
 * The options of the last inputs checked, by the input object, with their text when checked: a batch sends every
 * document with one options object, whose validation (zod, mostly cold code in a run's main thread) cost about
 * 0.25 ms a document. An input changed since is checked again. Each caller gets a copy of its own.
 */
const checked = new WeakMap<object, { text: string; options: ParseOptions }>();
const UNDEFINED = '\u0000undefined';

export function checkOptions(input: ParseOptionsInput | undefined): ParseOptions {
  const text = input === undefined ? undefined : textOf(input);
  const known = input === undefined ? undefined : checked.get(input);
  if (known && known.text === text) return structuredClone(known.options);
  const validation = validateParseOptions(input);
  if (!validation.ok) throw new OptionsValidationError(validation.body.details);
  if (input !== undefined && text !== undefined) checked.set(input, { text, options: structuredClone(validation.options) });
  return validation.options;
}

/** The input as JSON, a key set to undefined included; undefined when it is not plain data (checked every time). */
function textOf(input: ParseOptionsInput): string | undefined {
  try {
    return JSON.stringify(input, (_key, value: unknown) => (value === undefined ? UNDEFINED : value));
  } catch {
    return undefined;
  }
}

/** The content type to send for the file; throws when the file may not be sent. */
export function checkFile(source: UploadSource): string {
  checkSourceShape(source);
  const contentType = contentTypeFor(source.fileName);
  if (contentType === undefined) {
    throw new UnsupportedFileError(source.fileName, extensionOf(source.fileName), SUPPORTED_EXTENSIONS);
  }
  if (source.size > MAX_FILE_BYTES) throw new FileTooLargeError(source.fileName, source.size, MAX_FILE_BYTES);
  return contentType;
}

/**
 * Throws InvalidSourceError when `source` lacks what an UploadSource has. TypeScript callers cannot get here; a
 * JavaScript caller met `Cannot read properties of undefined (reading 'slice')` instead.
 */
function checkSourceShape(source: unknown): void {
  const refuse = (what: string) => new InvalidSourceError(`the file to parse is not an upload source: ${what}`);
  if (typeof source === 'string') throw refuse(`a string ("${source}"); pass await localFileSource(path)`);
  if (typeof source !== 'object' || source === null) throw refuse(`${kindOf(source)}; pass await localFileSource(path)`);
  if (typeof (source as { then?: unknown }).then === 'function') throw refuse('a promise; await localFileSource(path) before passing it');
  const { fileName, size, open } = source as Partial<Record<keyof UploadSource, unknown>>;
  if (typeof fileName !== 'string') throw refuse('its fileName is not a string');
  if (typeof size !== 'number' || !Number.isFinite(size) || size < 0) throw refuse(`${fileName}: its size is not a byte count`);
  if (typeof open !== 'function') throw refuse(`${fileName}: it has no open() to read its bytes`);
}
