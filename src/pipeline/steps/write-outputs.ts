/**
 * Write step: the document's files (Markdown, JSON, pages, blocks, chunks: ./chunk-outputs.ts decides which), then its
 * state, which makes the next run skip it. The store writes each file atomically; the state goes last, once the files
 * are durable, so a state always names outputs that exist, a power loss after it included.
 */
import type { ParseResult } from '../../backend/parse-backend.js';
import { placeResultImages } from '../images/place-images.js';
import { assetReference } from '../../store/layout.js';
import type { DocumentState } from '../../store/output-store.js';
import type { JobContext } from '../job-context.js';
import type { StepDeps } from '../processor-deps.js';
import { documentOutputs } from './chunk-outputs.js';

export type WriteDeps = Pick<StepDeps, 'store' | 'metrics'>;

/** Writes the outputs of a parse of the content `sha256`; resolves with the state written. */
export async function writeOutputs(ctx: JobContext, sha256: string, result: ParseResult, deps: WriteDeps): Promise<DocumentState> {
  const { data } = ctx;
  const { asked, settings } = ctx.options;
  const file = data.relativePath;
  const placed = settings.images ? placeResultImages(result, { file, linkOf: (name) => assetReference(file, name) }) : undefined;
  const outputs = documentOutputs(placed?.data ?? result.data, asked, settings, { path: data.relativePath, sha256 });
  if (placed) outputs.assets = placed.assets;
  // What is left once the outputs wait to be made durable is waiting: the document's slot goes to the next one.
  const written = await deps.store.writeDocument(data.relativePath, outputs, () => ctx.leaveSlot(), (bytes) => deps.metrics?.bytesWritten.inc(bytes));
  if (placed && deps.metrics) {
    deps.metrics.imagesWritten.inc(placed.assets.length);
    deps.metrics.imageBytesWritten.inc(placed.assets.reduce((sum, asset) => sum + asset.bytes.byteLength, 0));
  }
  const metadata = result.data.metadata;
  const warning = result.data.warning?.trim();
  const state: DocumentState = {
    relativePath: data.relativePath,
    source: data.uri,
    changeToken: data.changeToken,
    sha256,
    optionsFingerprint: data.optionsFingerprint,
    outputs: written,
    numPages: metadata?.numPages,
    totalPages: metadata?.totalPages,
    creditsUsed: metadata?.creditsUsed,
    convertedAt: new Date().toISOString(),
    origin: 'parsed',
    requests: ctx.requests,
    ...(warning ? { warning } : {}),
  };
  await deps.store.writeState(state);
  return state;
}
