/** Zip packages cut short at a chosen place, for the tests of what a cut leaves readable. */
import { readZipDirectory } from '../../src/engine/bytes/zip.js';

/** The package cut `into` bytes into the data of its part `part`: that part and every one after it lost. */
export function cutInside(zip: Uint8Array, part: string, into = 40): Uint8Array {
  const entry = readZipDirectory(zip)?.entries.find((candidate) => candidate.name === part);
  if (!entry) throw new Error(`no part ${part} in the package`);
  return zip.subarray(0, entry.localHeaderOffset + 30 + part.length + into);
}
