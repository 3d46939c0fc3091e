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

export function checkOptions(input: ParseOptionsInput | undefined): ParseOptions {
  const validation = validateParseOptions(input);
  if (!validation.ok) throw new OptionsValidationError(validation.body.details);
  return validation.options;
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
