/**
 * `docmill parse <file>`: the library's `parseFile`; Markdown (or the whole `data` with --json) to stdout or to --out.
 */
import { chunkLines, chunksOfFile, parseFile, parseUpload, writeParseOutput, type ParseData, type ParseFileOptions } from '../../app/parse-file.js';
import { STDIN_LABEL, stdinDocument } from '../../app/stdin-document.js';
import { integerSetting, MAX_ATTEMPTS } from '../../app/settings.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { UsageError } from '../usage-error.js';
import { chunkSettingsFromFlags } from '../chunk-flags.js';
import { apiOptions, commonOptions, environmentOf } from '../library-options.js';
import { ocrLanguagesFromFlags, optionsFromFlags, pictureOptionsFromFlags, type ParseFlags } from '../parse-flags.js';

export interface ParseCommandFlags extends ParseFlags {
  apiUrl?: string;
  apiKey?: string;
  json?: boolean;
  out?: string;
  maxAttempts: string;
  /** With `-`: the name standard input's document is uploaded under. */
  name?: string;
}

export async function parseCommand(file: string, flags: ParseCommandFlags, context: CliContext): Promise<number> {
  const environment = environmentOf(context);
  const chunking = chunkSettingsFromFlags(flags);
  if (chunking && flags.json) throw new UsageError('--chunks prints the chunks as JSON lines; leave out --json');
  const pictures = pictureOptionsFromFlags(flags);
  const writesPictures = pictures.images || pictures.pageImages;
  if (writesPictures && !flags.out) throw new UsageError('--images writes the pictures beside the Markdown (--page-images too): give --out <file.md>');
  if (pictures.imageDpi !== undefined && !writesPictures) throw new UsageError('--image-dpi is the resolution of the pictures --images or --page-images writes: give one of them');
  if (flags.name !== undefined && file !== '-') throw new UsageError('--name names the document read from standard input (`parse -`); a file has its own');
  const stdin = file === '-' ? await stdinDocument(context.stdin ?? process.stdin, flags.name) : undefined;
  const label = stdin ? STDIN_LABEL : file;
  const options: ParseFileOptions = {
    ...commonOptions(context, environment),
    ...apiOptions(flags, environment),
    // Chunks take their pages and boxes from the parse's pages and blocks (no extra cost, same Markdown).
    parseOptions: await optionsFromFlags(chunking ? { ...flags, pages: true, blocks: true } : flags),
    ocrLanguages: ocrLanguagesFromFlags(flags),
    maxAttempts: integerSetting(flags.maxAttempts, '--max-attempts', { max: MAX_ATTEMPTS }),
    ...(writesPictures && flags.out ? { images: { markdownPath: flags.out, dpi: pictures.imageDpi, pageImages: pictures.pageImages } } : {}),
  };
  const data = stdin ? await parseUpload(async () => stdin.source, label, options) : await parseFile(file, options);
  const output = chunking ? chunkLines(await chunksOfFile(label, data, chunking, stdin?.bytes), label) : flags.json ? `${JSON.stringify(data, null, 2)}\n` : markdownOf(data);
  if (flags.out) {
    await writeParseOutput(flags.out, output);
    context.logger.info({ file: label, out: flags.out }, 'parsed');
  } else {
    context.stdout.write(output);
  }
  if (data.warning) context.logger.warn({ file: label, warning: data.warning }, 'the parse API sent a warning');
  return EXIT.ok;
}

function markdownOf(data: ParseData): string {
  if (typeof data.markdown === 'string') return data.markdown.endsWith('\n') ? data.markdown : `${data.markdown}\n`;
  // No markdown asked for (--formats html, say): the other results are only meaningful as JSON.
  return `${JSON.stringify(data, null, 2)}\n`;
}
