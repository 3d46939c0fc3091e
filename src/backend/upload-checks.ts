/**
 * Checks made before any byte is sent or parsed, shared by the remote client and the local engine:
 * valid options, a supported extension, at most 50 MiB.
 */
import { contentTypeFor, extensionOf, SUPPORTED_EXTENSIONS } from '../contract/extensions.js';
import { MAX_FILE_BYTES } from '../contract/limits.js';
import type { ParseOptions, ParseOptionsInput } from '../contract/options.js';
import { validateParseOptions } from '../contract/validation.js';
import { FileTooLargeError, OptionsValidationError, UnsupportedFileError } from './errors.js';
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
  const contentType = contentTypeFor(source.fileName);
  if (contentType === undefined) {
    throw new UnsupportedFileError(source.fileName, extensionOf(source.fileName), SUPPORTED_EXTENSIONS);
  }
  if (source.size > MAX_FILE_BYTES) throw new FileTooLargeError(source.fileName, source.size, MAX_FILE_BYTES);
  return contentType;
}
