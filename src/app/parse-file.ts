/**
 * `parseFile`: one document through /v2/parse, on the embedded local engine or a remote API, with the same
 * validation and retry rules as the CLI; resolves to the contract's `data`.
 *
 *   const data = await parseFile('report.pdf', { parseOptions: { parsers: [{ type: 'pdf', pages: true }] } });
 *   const remote = await parseFile('deck.pptx', { apiUrl: 'https://api.example.com', apiKey: process.env.KEY });
 */
import type { ParseBackend } from '../backend/parse-backend.js';
import { localFileSource } from '../backend/upload-source.js';
import { integerSetting } from '../config/numbers.js';
import { MAX_ATTEMPTS } from '../contract/limits.js';
import type { ParseOptionsInput } from '../contract/options.js';
import type { ParseData } from '../contract/response.js';
import { createLogger } from '../logging/logger.js';
import type { ApiOptions, CommonOptions } from './options.js';
import { checkOcrLanguagesFor, processingSettingsFrom } from './processing-settings.js';
import { buildBackend, validatedOptions } from './pipeline.js';

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
}

export async function parseFile(path: string, options: ParseFileOptions = {}): Promise<ParseData> {
  const logger = options.logger ?? createLogger({ level: 'silent' });
  const { ocrLanguages } = processingSettingsFrom({ ocrLanguages: options.ocrLanguages });
  const { options: parseOptions } = validatedOptions(options.parseOptions);
  const maxAttempts = options.maxAttempts === undefined ? undefined : integerSetting(options.maxAttempts, 'maxAttempts', { max: MAX_ATTEMPTS });
  const source = await localFileSource(path);
  const backend =
    options.backend ?? buildBackend({ engineThreads: 1, ...options }, logger, options.environment, maxAttempts);
  try {
    checkOcrLanguagesFor(backend, ocrLanguages ? { ocrLanguages } : {});
    const result = await backend.parse(source, parseOptions, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(ocrLanguages ? { ocrLanguages } : {}),
    });
    return result.data;
  } finally {
    if (!options.backend) await backend.close();
  }
}
