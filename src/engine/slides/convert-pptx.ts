/** PPTX and PPTM slide decks → DocumentModel. (Being written: refuses every file until the converter lands.) */
import { EngineError } from '../engine-error.js';
import type { ConvertInput, DocumentModel } from '../model.js';

export function convertPptx(input: ConvertInput): Promise<DocumentModel> {
  return Promise.reject(new EngineError('UNSUPPORTED_FILE', `the local engine does not convert ${input.extension} files yet`));
}
