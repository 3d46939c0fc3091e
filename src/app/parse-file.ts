/**
 * `parseFile`: one document through /v2/parse, on the embedded local engine or a remote API, with the same
 * validation and retry rules as the CLI; resolves to the contract's `data`.
 *
 *   const data = await parseFile('report.pdf', { parseOptions: { parsers: [{ type: 'pdf', pages: true }] } });
 *   const remote = await parseFile('deck.pptx', { apiUrl: 'https://api.example.com', apiKey: process.env.KEY });
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { ParseBackend, ParseResult } from '../backend/parse-backend.js';
import { localFileSource, type UploadSource } from '../backend/upload-source.js';
import { chunk, type Chunk } from '../chunk/chunk.js';
import { writeFileAtomic } from '../common/atomic-file.js';
import { pictureRenderingOf, type ChunkSettings } from '../common/processing-settings.js';
import { integerSetting } from '../config/numbers.js';
import { MAX_ATTEMPTS } from '../contract/limits.js';
import type { ParseOptionsInput } from '../contract/options.js';
import type { ParseData } from '../contract/response.js';
import { pdfParserOf } from '../contract/options.js';
import { placeResultImages } from '../pipeline/images/place-images.js';
import { parseOptionsFor } from '../pipeline/steps/chunk-outputs.js';
import { jsonLines, relativeAssetLink } from '../store/layout.js';
import { CompositionRoot } from './composition-root.js';
import type { ApiOptions, CommonOptions } from './options.js';
import { checkOcrLanguagesFor, processingSettingsFrom, validatedOptions } from './processing-settings.js';

export type { ParseData };

export interface ParseFileOptions extends ApiOptions, CommonOptions {
  /**
   * Tesseract languages OCR reads scanned pages in, on the local engine (`['deu', 'eng']`). @default the
   * document's declared language when its data is installed, English otherwise
   */
  ocrLanguages?: string[] | undefined;
  /** The /v2/parse options. @default {} (Markdown, main content only) */
  parseOptions?: ParseOptionsInput | undefined;
  /** Remote API: attempts for retryable answers (408, 429, 5xx), the contract's backoff between them. @default 5 */
  maxAttempts?: number | undefined;
  /**
   * A backend to reuse across many calls (a LocalParseEngine keeps its threads warm; a RemoteParseApi its
   * connections). Not closed by parseFile. @default one built from apiUrl/apiKey, closed after the call
   */
  backend?: ParseBackend | undefined;
  /**
   * Write the document's pictures as files beside the Markdown that will be written to `markdownPath`: in the folder
   * `<markdownPath without .md>.assets/` (`out/report.md` → `out/report.assets/image-1.png`), written before this
   * resolves; the returned Markdown links to them relatively. The same defaults and limits as `run`'s `images`;
   * `dpi` and `pageImages` as `run`'s `imageDpi` and `pageImages` (each page's picture linked from its entry in
   * `pages` and `blocks`, when those are asked). @default none: pictures stay alt-text placeholders
   */
  images?: { markdownPath: string; dpi?: number | undefined; pageImages?: boolean | undefined } | undefined;
}

export async function parseFile(path: string, options: ParseFileOptions = {}): Promise<ParseData> {
  return parseUpload(() => localFileSource(path), path, options);
}

/**
 * parseFile for any upload (standard input's bytes, say): `source` is made once the options are found valid;
 * `label` names the document in the pictures' messages.
 */
export async function parseUpload(source: () => Promise<UploadSource>, label: string, options: ParseFileOptions = {}): Promise<ParseData> {
  const { ocrLanguages } = processingSettingsFrom({ ocrLanguages: options.ocrLanguages });
  const { options: parseOptions } = validatedOptions(options.parseOptions);
  const pictures = options.images ? processingSettingsFrom({ images: true, imageDpi: options.images.dpi, pageImages: options.images.pageImages }) : undefined;
  const maxAttempts = options.maxAttempts === undefined ? undefined : integerSetting(options.maxAttempts, 'maxAttempts', { max: MAX_ATTEMPTS });
  const upload = await source();
  return CompositionRoot.use(options, async (root) => {
    const backend = options.backend ?? root.parseBackend({ engineThreads: 1, ...options }, maxAttempts);
    checkOcrLanguagesFor(backend, ocrLanguages ? { ocrLanguages } : {});
    const images = options.images;
    const result = await backend.parse(upload, pictures ? parseOptionsFor(parseOptions, pictures) : parseOptions, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(ocrLanguages ? { ocrLanguages } : {}),
      ...(pictures ? { liftImages: true, pictures: pictureRenderingOf(pictures) } : {}),
    });
    if (!images) return result.data;
    const data = await writeImagesBeside(result, label, images.markdownPath);
    // Pages parsed only to carry the page pictures.
    if (!pdfParserOf(parseOptions).pages) delete data.pages;
    return data;
  });
}

/** Writes the result's pictures into the assets folder of `markdownPath`; resolves with the data linking to them. */
async function writeImagesBeside(result: ParseResult, file: string, markdownPath: string): Promise<ParseData> {
  const target = resolve(markdownPath);
  const folderName = `${basename(target).replace(/\.md$/i, '')}.assets`;
  const placed = placeResultImages(result, { file, linkOf: (name) => relativeAssetLink(folderName, name) });
  await Promise.all(placed.assets.map((asset) => writeFileAtomic(join(dirname(target), folderName, asset.name), asset.bytes)));
  return placed.data;
}

/**
 * The retrieval chunks of a parsed file (`parse --chunks`), their source named by `path` as given, with the sha256 of
 * its bytes (read from `path`, unless given: standard input's).
 */
export async function chunksOfFile(path: string, data: ParseData, settings: ChunkSettings, bytes?: Uint8Array): Promise<Chunk[]> {
  const hash = createHash('sha256');
  if (bytes) hash.update(bytes);
  else for await (const piece of createReadStream(path)) hash.update(piece as Buffer);
  return chunk(data, { ...settings, source: { path, sha256: hash.digest('hex') } });
}

/** `parse --chunks`'s output: the chunks as the `.chunks.jsonl` file a run writes holds them, in UTF-8 (`label` names them in errors). */
export function chunkLines(chunks: readonly Chunk[], label: string): Uint8Array {
  return jsonLines(chunks, label);
}

/** Writes a parse's output to `path` whole or not at all (a temporary file, then a rename). */
export function writeParseOutput(path: string, text: string | Uint8Array): Promise<void> {
  return writeFileAtomic(resolve(path), text);
}
