/** An upload source over bytes already in memory, as the engine's `parse` takes one. */
import { bytesUploadSource, type UploadSource } from '../../src/backend/upload-source.js';

export function memorySource(fileName: string, bytes: Uint8Array): UploadSource {
  return bytesUploadSource(fileName, bytes);
}
