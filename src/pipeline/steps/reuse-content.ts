/**
 * Skip check by content, once the file is read: the same content with the same options was converted already
 * (under this path or another), so its outputs are copied, not parsed again.
 */
import { DocmillError } from '../../errors/docmill-error.js';
import type { DocumentState, OutputStore } from '../../store/output-store.js';
import type { JobContext } from '../job-context.js';
import type { Finished } from './record.js';

/** The skip when the store holds this content's outputs (copied to this path when they are under another). */
export async function reuseByContent(ctx: JobContext, sha256: string, store: OutputStore): Promise<Finished | undefined> {
  if (ctx.data.force) return undefined;
  const { data } = ctx;
  const twin = await store.findByContent(sha256, data.optionsFingerprint);
  if (!twin) return undefined;
  let outputs = twin.outputs;
  if (twin.relativePath !== data.relativePath) {
    try {
      outputs = await store.copyDocument(twin, data.relativePath, () => ctx.leaveSlot());
    } catch (error) {
      // The twin's outputs were deleted since: parse this one afresh.
      if (error instanceof DocmillError && error.code === 'STORE_OUTPUT_MISSING') return undefined;
      throw error;
    }
  }
  const state: DocumentState = {
    ...twin,
    relativePath: data.relativePath,
    source: data.uri,
    changeToken: data.changeToken,
    outputs,
    convertedAt: new Date().toISOString(),
    origin: 'copied',
  };
  await store.writeState(state);
  const reason = twin.relativePath === data.relativePath ? 'same content' : `same content as ${twin.relativePath}`;
  return { status: 'skipped', state, reason, requests: ctx.requests };
}
