/** EPUB 2 and 3 books → DocumentModel. (Being written: refuses every file until the converter lands.) */
import { EngineError } from '../engine-error.js';
import type { ConvertInput, DocumentModel } from '../model.js';

export function convertEpub(input: ConvertInput): Promise<DocumentModel> {
  return Promise.reject(new EngineError('UNSUPPORTED_FILE', `the local engine does not convert ${input.extension} files yet`));
}
