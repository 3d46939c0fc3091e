/**
 * `docmill parse <file>`: one document through /v2/parse; Markdown (or the whole `data` with --json) to stdout
 * or to --out.
 */
import { resolve } from 'node:path';
import { RemoteParseApi } from '../../client/remote-parse-api.js';
import type { ParseBackend } from '../../backend/parse-backend.js';
import { LocalParseEngine } from '../../engine/local-engine.js';
import { localFileSource } from '../../backend/upload-source.js';
import { OptionsValidationError } from '../../backend/errors.js';
import { MAX_ATTEMPTS } from '../../contract/limits.js';
import { validateParseOptions } from '../../contract/validation.js';
import { resolveApiConfig } from '../../config/api-config.js';
import type { ParseData } from '../../contract/response.js';
import { secrets } from '../../logging/redact.js';
import { writeFileAtomic } from '../../common/atomic-file.js';
import { EXIT } from '../exit-codes.js';
import { optionsFromFlags, type ParseFlags } from '../parse-flags.js';
import type { CliContext } from '../context.js';
import { UsageError } from '../usage-error.js';

export interface ParseCommandFlags extends ParseFlags {
  apiUrl?: string;
  apiKey?: string;
  json?: boolean;
  out?: string;
  maxAttempts: string;
}


export async function parseCommand(file: string, flags: ParseCommandFlags, context: CliContext): Promise<number> {
  const api = resolveApiConfig(flags, context.env);
  secrets.add(api.apiKey);
  const validation = validateParseOptions(await optionsFromFlags(flags));
  if (!validation.ok) throw new OptionsValidationError(validation.body.details);
  const maxAttempts = maxAttemptsFrom(flags.maxAttempts);
  const source = await localFileSource(file);
  // No API named: the embedded local engine, which needs no key and no network.
  const client: ParseBackend = api.apiUrl
    ? new RemoteParseApi({ apiUrl: api.apiUrl, apiKey: api.apiKey, logger: context.logger, retry: { maxAttempts } })
    : new LocalParseEngine({ size: 1 });
  try {
    const result = await client.parse(source, validation.options, { signal: context.signal });
    const output = flags.json ? `${JSON.stringify(result.data, null, 2)}\n` : markdownOf(result.data);
    if (flags.out) {
      await writeFileAtomic(resolve(flags.out), output);
      context.logger.info({ file, out: flags.out, attempts: result.attempts }, 'parsed');
    } else {
      context.stdout.write(output);
    }
    if (result.data.warning) context.logger.warn({ file, warning: result.data.warning }, 'the parse API sent a warning');
    return EXIT.ok;
  } finally {
    await client.close();
  }
}

function maxAttemptsFrom(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > MAX_ATTEMPTS) {
    throw new UsageError(`--max-attempts must be an integer from 1 to ${MAX_ATTEMPTS}, not "${text}"`);
  }
  return value;
}

function markdownOf(data: ParseData): string {
  if (typeof data.markdown === 'string') return data.markdown.endsWith('\n') ? data.markdown : `${data.markdown}\n`;
  // No markdown asked for (--formats html, say): the other results are only meaningful as JSON.
  return `${JSON.stringify(data, null, 2)}\n`;
}
