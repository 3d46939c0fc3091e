/**
 * Read-source step: the file, made available for upload and hashed on the way (materialise.ts). A file over the
 * parse API's 50 MiB limit is refused first, unread, unless it is a PDF (which goes in page ranges).
 */
import { UnrecoverableError } from '../../queue/commonjs-packages.js';
import { extensionOf } from '../../contract/extensions.js';
import { MAX_FILE_BYTES } from '../../contract/limits.js';
import type { SourceFile } from '../../sources/source.js';
import type { JobContext } from '../job-context.js';
import { materialise, type MaterialisedFile } from '../materialise.js';
import type { StepDeps } from '../processor-deps.js';

export type ReadSourceDeps = Pick<StepDeps, 'sourceFor' | 'metrics'>;

/** The file for upload; the caller disposes of it. */
export async function readSource(ctx: JobContext, deps: ReadSourceDeps): Promise<MaterialisedFile> {
  const { data } = ctx;
  if (data.size > MAX_FILE_BYTES && extensionOf(data.relativePath) !== '.pdf') {
    throw new UnrecoverableError(`${data.relativePath}: ${data.size} bytes is over the parse API's 50 MiB limit`);
  }
  const file: SourceFile = { uri: data.uri, relativePath: data.relativePath, size: data.size, changeToken: data.changeToken };
  const local = await materialise(await deps.sourceFor(data.source), file, ctx.signal);
  deps.metrics?.bytesRead.inc(local.size);
  return local;
}
