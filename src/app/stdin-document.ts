/**
 * `docmill parse -`: a document read from standard input (`curl -s … | docmill parse -`). The contract names every
 * upload, and its extension picks the type, so the bytes get a name: the one `--name` gives, else `stdin` with the
 * extension of what the bytes are (the engine's sniff: a PDF, a Word or OpenDocument package, HTML, RTF...). Text
 * that is neither HTML nor RTF could be CSV or not, so it needs `--name`.
 */
import { FileReadError, FileTooLargeError } from '../backend/errors.js';
import { bytesUploadSource, type UploadSource } from '../backend/upload-source.js';
import { MAX_FILE_BYTES } from '../contract/limits.js';
import { sniffBytes, type DocumentType } from '../engine/bytes/sniff.js';

/** What standard input is called in messages. */
export const STDIN_LABEL = 'stdin';

const EXTENSION_OF: Readonly<Record<Exclude<DocumentType, 'text'>, string>> = {
  pdf: '.pdf',
  docx: '.docx',
  xlsx: '.xlsx',
  xlsb: '.xlsb',
  pptx: '.pptx',
  odt: '.odt',
  ods: '.ods',
  odp: '.odp',
  epub: '.epub',
  doc: '.doc',
  xls: '.xls',
  ppt: '.ppt',
  rtf: '.rtf',
  html: '.html',
  // An Excel 2003 XML or flat OpenDocument spreadsheet: the engine reads it by its bytes under `.xls`.
  'spreadsheet-xml': '.xls',
};

/** All of `input`, refused past the contract's limit without reading on (a stream can be endless). */
async function readBounded(input: AsyncIterable<Uint8Array | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    size += bytes.byteLength;
    if (size > MAX_FILE_BYTES) throw new FileTooLargeError(STDIN_LABEL, size, MAX_FILE_BYTES);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size);
}

/** The name the bytes are uploaded under: `name` as given, else `stdin` with the extension of what they are. */
function nameFor(bytes: Uint8Array, name: string | undefined): string {
  if (name !== undefined) return name;
  const real = sniffBytes(bytes);
  if (real.kind === 'empty') throw new FileReadError(STDIN_LABEL, 'nothing was read (0 bytes)');
  if (real.kind === 'other') throw new FileReadError(STDIN_LABEL, `no document docmill reads: ${real.looksLike}`);
  if (real.type && real.type !== 'text') return `${STDIN_LABEL}${EXTENSION_OF[real.type]}`;
  throw new FileReadError(STDIN_LABEL, 'text that is neither HTML nor RTF: name it with --name to say what it is, as in --name data.csv');
}

/** Standard input read whole as an upload, with its bytes (for the chunks' source hash). */
export async function stdinDocument(input: AsyncIterable<Uint8Array | string>, name?: string): Promise<{ source: UploadSource; bytes: Buffer }> {
  const bytes = await readBounded(input);
  return { source: bytesUploadSource(nameFor(bytes, name), bytes), bytes };
}
