/**
 * pdfjs's `BinaryDataFactory` for docmill: CMaps, standard font data and wasm decoders read from the installed
 * pdfjs-dist folders once per thread and kept in memory. pdfjs's Node factory reads the file again for every
 * document (an asynchronous read the parser waits for); an engine thread converts thousands of documents.
 * Names come from PDF content (a CMap is named by the document), so only plain file names are served.
 */
import { readFile } from 'node:fs/promises';

type Kind = 'cMapUrl' | 'standardFontDataUrl' | 'wasmUrl';

const PLAIN_FILE_NAME = /^[A-Za-z0-9][\w.+-]*$/;

const cache = new Map<string, Promise<Uint8Array>>();

export class CachedBinaryDataFactory {
  private readonly folders: Record<Kind, string | null>;

  constructor(options: { cMapUrl?: string | null; standardFontDataUrl?: string | null; wasmUrl?: string | null }) {
    this.folders = {
      cMapUrl: options.cMapUrl ?? null,
      standardFontDataUrl: options.standardFontDataUrl ?? null,
      wasmUrl: options.wasmUrl ?? null,
    };
  }

  async fetch({ kind, filename }: { kind: Kind; filename: string }): Promise<Uint8Array> {
    const folder = this.folders[kind];
    if (!folder) throw new Error(`no folder configured for pdfjs ${kind} data`);
    if (!PLAIN_FILE_NAME.test(filename) || filename.includes('..')) {
      throw new Error(`refused pdfjs ${kind} data name "${filename}"`);
    }
    const path = `${folder}${filename}`;
    let pending = cache.get(path);
    if (!pending) {
      pending = readFile(path).then((buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength));
      cache.set(path, pending);
      // A failed read is not remembered: the next document tries again.
      pending.catch(() => cache.delete(path));
    }
    // pdfjs may transfer what it is given; the cached bytes stay whole.
    return (await pending).slice();
  }
}
