/**
 * A range's child job: parses one page range of a long PDF through the same gate, deferrals (429, 5xx) and queue
 * attempts as a document (./parse.ts), then checkpoints the result atomically in the store. It records nothing in the
 * manifest: its document does, once merged. A range already checkpointed (by a run that died before its document
 * merged) is not sent again.
 */
import { UnrecoverableError } from '../../queue/commonjs-packages.js';
import type { UploadSource } from '../../backend/upload-source.js';
import type { JobContext } from '../job-context.js';
import type { StepDeps } from '../processor-deps.js';
import { RangeWorkFiles } from '../range-work-files.js';
import { parse, type ParseDeps } from './parse.js';
import { rangeFileName } from './range-options.js';

export type ParseRangeDeps = ParseDeps & Pick<StepDeps, 'store' | 'logger'>;

export async function parseRange(ctx: JobContext, deps: ParseRangeDeps): Promise<void> {
  const { data } = ctx;
  const range = data.range;
  if (!range) throw new UnrecoverableError('a range job without its range');
  const files = new RangeWorkFiles(deps.store, range.sha256, data.optionsFingerprint);
  if (await files.hasCheckpoint(range)) return;
  const bytes = await files.readBytes(range);
  if (!bytes) {
    // Gone since the cut: the same content was merged under another path (which removes its ranges), or the store
    // was cleaned by hand. The document's job decides when it runs again: it copies the twin's outputs, or cuts anew.
    deps.logger.info({ file: data.relativePath, range: `${range.first}-${range.last}` }, 'page range no longer in the store; its document decides');
    return;
  }
  const upload: UploadSource = {
    fileName: rangeFileName(data.relativePath, range),
    size: bytes.byteLength,
    open: async function* () {
      yield bytes;
    },
  };
  const result = await parse(ctx, upload, deps);
  await files.writeCheckpoint(range, ctx.requests, result.data);
}
