/**
 * Bounded reading of the parts of a zip package (OpenDocument text, EPUB): the central directory is walked once
 * without inflating anything, then parts are inflated by name on demand.
 *
 * Bounds, the same as the Word reader's (docx/package.ts) and the spreadsheet reader's (sheets/limits.ts): at most
 * 20,000 entries, a part may inflate to 64 MiB (its declared size, which fflate also uses as the output buffer,
 * so a part that lies about its size is cut there, never grown), and all the parts read from one package together
 * to 256 MiB. Crossing a bound is DOCUMENT_TOO_COMPLEX naming what was too big; a directory that cannot be read
 * (not a zip, cut short) is CORRUPT_DOCUMENT.
 */
import { strFromU8, unzipSync } from 'fflate';
import { EngineError } from './engine-error.js';

export const MAX_ZIP_PARTS = 20_000;
export const MAX_ZIP_PART_BYTES = 64 * 1024 * 1024;
export const MAX_ZIP_READ_BYTES = 256 * 1024 * 1024;

export interface ZipPackage {
  /** Entry names in directory order (folders included, as the archive lists them). */
  readonly names: readonly string[];
  has(name: string): boolean;
  /** Declared uncompressed size of an entry, or undefined when there is no such entry. */
  sizeOf(name: string): number | undefined;
  /** The named parts that exist, inflated (one pass over the archive). */
  read(names: Iterable<string>): Map<string, Uint8Array>;
  /** One part decoded as UTF-8, or undefined when it is absent. */
  readText(name: string): string | undefined;
}

class TooManyParts extends Error {}

/**
 * Opens a zip package for bounded reading. `what` names the document in error messages ("the OpenDocument
 * text", "the EPUB book").
 */
export function openZipPackage(bytes: Uint8Array, what: string): ZipPackage {
  const sizes = new Map<string, number>();
  const names: string[] = [];
  try {
    unzipSync(bytes, {
      filter(file) {
        // A hostile end record can claim billions of entries: stop counting at the bound.
        if (names.length >= MAX_ZIP_PARTS) throw new TooManyParts();
        names.push(file.name);
        sizes.set(file.name, file.originalSize);
        return false;
      },
    });
  } catch (error) {
    if (error instanceof TooManyParts) {
      throw new EngineError('DOCUMENT_TOO_COMPLEX', `${what} has more than ${MAX_ZIP_PARTS.toLocaleString('en-US')} parts in its zip package`);
    }
    throw new EngineError('CORRUPT_DOCUMENT', `${what} is damaged or cut short: its zip package cannot be read (${messageOf(error)})`, {
      cause: error,
    });
  }
  let budget = MAX_ZIP_READ_BYTES;

  const read = (wanted: Iterable<string>): Map<string, Uint8Array> => {
    const set = new Set([...wanted].filter((name) => sizes.has(name)));
    const parts = new Map<string, Uint8Array>();
    if (set.size === 0) return parts;
    for (const name of set) {
      const size = sizes.get(name) ?? 0;
      if (size > MAX_ZIP_PART_BYTES) {
        throw new EngineError(
          'DOCUMENT_TOO_COMPLEX',
          `${what} is too large to convert: its part ${name} inflates to ${megabytes(size)} (limit ${megabytes(MAX_ZIP_PART_BYTES)} per part)`,
        );
      }
      budget -= size;
      if (budget < 0) {
        throw new EngineError('DOCUMENT_TOO_COMPLEX', `${what} is too large to convert: its parts inflate to more than ${megabytes(MAX_ZIP_READ_BYTES)}`);
      }
    }
    let files: Record<string, Uint8Array>;
    try {
      files = unzipSync(bytes, { filter: (file) => set.has(file.name) });
    } catch (error) {
      throw new EngineError('CORRUPT_DOCUMENT', `${what} is damaged: a part of its zip package cannot be inflated (${messageOf(error)})`, {
        cause: error,
      });
    }
    for (const [name, data] of Object.entries(files)) parts.set(name, data);
    return parts;
  };

  return {
    names,
    has: (name) => sizes.has(name),
    sizeOf: (name) => sizes.get(name),
    read,
    readText(name) {
      const data = read([name]).get(name);
      return data === undefined ? undefined : strFromU8(data);
    },
  };
}

function megabytes(bytes: number): string {
  return `${Math.max(1, Math.round(bytes / (1024 * 1024))).toLocaleString('en-US')} MiB`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
