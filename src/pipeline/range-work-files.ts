/**
 * A long PDF's work files in the store, under `_docmill/ranges/`: each page range's bytes (cut once by the document's
 * job, read by the range's child job on whichever worker takes it) and its checkpoint (the range's parse result and
 * the requests it took, written atomically before the child completes). Keyed by the PDF's content and the options
 * fingerprint, so a rerun, or the same content under another path, finds them.
 */
import { parseDataSchema, type ParseData } from '../contract/response.js';
import { rangeKey } from '../store/layout.js';
import type { OutputStore } from '../store/output-store.js';
import type { PageRange } from './pdf-ranges.js';

/** A range's checkpoint: its parse result and the requests it took. */
export interface Checkpoint {
  v: 1;
  first: number;
  last: number;
  requests: number;
  data: ParseData;
}

export class RangeWorkFiles {
  constructor(
    private readonly store: OutputStore,
    private readonly sha256: string,
    private readonly fingerprint: string,
  ) {}

  bytesKey(range: PageRange): string {
    return rangeKey(this.sha256, this.fingerprint, range.first, range.last, 'pdf');
  }

  checkpointKey(range: PageRange): string {
    return rangeKey(this.sha256, this.fingerprint, range.first, range.last, 'json');
  }

  async readBytes(range: PageRange): Promise<Uint8Array | undefined> {
    return this.store.readWorkFile(this.bytesKey(range));
  }

  async writeBytes(range: PageRange, bytes: Uint8Array): Promise<void> {
    await this.store.writeWorkFile(this.bytesKey(range), bytes);
  }

  /** The range's checkpoint; undefined when there is none, or it does not read back (the range is parsed again rather than trusted). */
  async readCheckpoint(range: PageRange): Promise<Checkpoint | undefined> {
    const body = await this.store.readWorkFile(this.checkpointKey(range));
    if (!body) return undefined;
    try {
      const parsed = JSON.parse(Buffer.from(body).toString('utf8')) as Partial<Checkpoint>;
      if (parsed.v !== 1 || parsed.first !== range.first || parsed.last !== range.last) return undefined;
      return { v: 1, first: range.first, last: range.last, requests: Number(parsed.requests ?? 0), data: parseDataSchema.parse(parsed.data) };
    } catch {
      return undefined;
    }
  }

  async hasCheckpoint(range: PageRange): Promise<boolean> {
    return (await this.readCheckpoint(range)) !== undefined;
  }

  async writeCheckpoint(range: PageRange, requests: number, data: ParseData): Promise<void> {
    const checkpoint: Checkpoint = { v: 1, first: range.first, last: range.last, requests, data };
    await this.store.writeWorkFile(this.checkpointKey(range), JSON.stringify(checkpoint));
  }

  async removeCheckpoint(range: PageRange): Promise<void> {
    await this.store.deleteWorkFiles([this.checkpointKey(range)]);
  }

  async removeBytes(ranges: readonly PageRange[]): Promise<void> {
    await this.store.deleteWorkFiles(ranges.map((range) => this.bytesKey(range)));
  }

  /** Removes every range's bytes and checkpoint. */
  async remove(ranges: readonly PageRange[]): Promise<void> {
    await this.store.deleteWorkFiles(ranges.flatMap((range) => [this.bytesKey(range), this.checkpointKey(range)]));
  }
}
