/**
 * Where results go: a local folder or s3://bucket/prefix. Every write is atomic, every key stays below the root.
 */

/** The outputs of one document, by kind; absent kinds are not written. */
export interface DocumentOutputs {
  /** `<path>.md`: data.markdown. */
  markdown?: string;
  /** `<path>.json`: the rest of `data` (metadata, links, summary, html, warning, json...). */
  json?: unknown;
  /** `<path>.pages.json`: data.pages. */
  pages?: unknown;
  /** `<path>.blocks.json`: data.blocks. */
  blocks?: unknown;
  /** `<path>.chunks.jsonl`: retrieval chunks, one JSON object a line. */
  chunks?: readonly unknown[];
  /** `<path>.assets/<name>`: the document's pictures (`--images`), which the Markdown links to. */
  assets?: readonly AssetFile[];
}

/** One picture of a document, written as `<path>.assets/<name>`. */
export interface AssetFile {
  /** A plain file name (`image-1.png`): letters, digits, `-`, `_` and one extension. */
  name: string;
  bytes: Uint8Array;
}

/** The kinds of text output, one file each; the pictures (`assets`) are a folder of their own. */
export type OutputKind = Exclude<keyof DocumentOutputs, 'assets'>;

export const OUTPUT_SUFFIX: Record<OutputKind, string> = {
  markdown: '.md',
  json: '.json',
  pages: '.pages.json',
  blocks: '.blocks.json',
  chunks: '.chunks.jsonl',
};

/** What the store remembers about one converted document, so later runs can skip it without parsing. */
export interface DocumentState {
  relativePath: string;
  source: string;
  changeToken: string;
  sha256: string;
  /** Fingerprint of the parse options the outputs were made with. */
  optionsFingerprint: string;
  /** Output keys relative to the store root. */
  outputs: string[];
  numPages?: number | undefined;
  totalPages?: number | undefined;
  creditsUsed?: number | undefined;
  convertedAt: string;
  /** parsed: outputs from a parse; copied: outputs copied from identical content under another path. */
  origin?: 'parsed' | 'copied' | undefined;
  /** Parse requests made to produce these outputs. */
  requests?: number | undefined;
  /**
   * What the parse warned of (a file cut short and read as far as it goes, a sheet whose part was lost, a page OCR
   * could not read…): the outputs are what could be made, which may not be all the document holds.
   */
  warning?: string | undefined;
  /**
   * When the source was found removed, its outputs kept (`--removed keep`): the removal is recorded, and is not
   * recorded again. Such a state still names the kept outputs (and the content index may lead to them), but nothing is
   * skipped as unchanged by it: a file that comes back under the path is looked at anew.
   */
  removedAt?: string | undefined;
}

/** removed: the source file is gone (its outputs deleted or kept, as `--removed` says). */
export type ManifestStatus = 'converted' | 'skipped' | 'failed' | 'removed';

/** One line of `_docmill/manifest.jsonl` (and, for failures, of `_docmill/failures.jsonl`). */
export interface ManifestEntry {
  path: string;
  source: string;
  sha256?: string | undefined;
  size: number;
  status: ManifestStatus;
  outputs: string[];
  numPages?: number | undefined;
  totalPages?: number | undefined;
  creditsUsed?: number | undefined;
  /** Parse requests made for the document, every try of every start of its job. */
  attempts: number;
  /** The time of the job's last start, the one that recorded this line (its earlier starts are in `totalDurationMs`). */
  durationMs: number;
  /** The document's time across every start of its job: deferrals, pauses and queue attempts (waits between them not counted). */
  totalDurationMs?: number | undefined;
  /** How long the last parse request took, from sending to its answer, when one was made. */
  lastAttemptMs?: number | undefined;
  error?: { status?: number | undefined; code: string; message: string } | undefined;
  /** Why a skipped file was skipped: unchanged, same content elsewhere, unsupported extension... */
  reason?: string | undefined;
  /** The file's extension, on a file skipped for it (`.msg`). */
  extension?: string | undefined;
  /** The parse's warning, on a line whose outputs carry one (DocumentState.warning). */
  warning?: string | undefined;
  at: string;
}

export interface OutputStore {
  /** The location as the user gave it (a path or s3://bucket/prefix). */
  readonly location: string;
  /**
   * Writes each present output atomically under the layout for `relativePath`; returns the keys written, each durable.
   * A local folder makes outputs durable by group commit (one flush pass for the documents finishing about the same
   * time, before their renames): `onWait` is called once every output is waiting for that pass, so that the caller
   * can give back what the wait does not need (on S3 every PUT is durable, and it is never called). `onBytes` is told
   * the bytes of the files written, pictures included, counted from what was written: serialising the outputs again
   * to count them doubled the cost of a large document's JSON and chunks.
   */
  writeDocument(relativePath: string, outputs: DocumentOutputs, onWait?: () => void, onBytes?: (bytes: number) => void): Promise<string[]>;
  /**
   * Outputs waiting for a group commit are made durable now, without waiting out its window: called when no document
   * is converting, so none is coming to join them. A store without a group commit leaves it out.
   */
  commitWaiting?(): void;
  /** Copies the outputs recorded in `from` to the layout of `toRelativePath` (same content at another path); `onWait` as for writeDocument. */
  copyDocument(from: DocumentState, toRelativePath: string, onWait?: () => void): Promise<string[]>;
  /** The state recorded for a relative path, if any. */
  readState(relativePath: string): Promise<DocumentState | undefined>;
  writeState(state: DocumentState): Promise<void>;
  /** The state of any document converted from this content with these options (content-addressed index). */
  findByContent(sha256: string, optionsFingerprint: string): Promise<DocumentState | undefined>;
  appendManifest(entry: ManifestEntry): Promise<void>;
  /**
   * The latest manifest entry for `relativePath` recorded at `since` (an ISO time) or later, looked for only among the
   * lines written since about then: whether an earlier start of a job, which died after the document's state was
   * written, got as far as its manifest line. Undefined when there is none.
   */
  recordedSince(relativePath: string, since: string): Promise<ManifestEntry | undefined>;
  /**
   * A source file is gone: with `deleteOutputs`, every output of `relativePath` (each kind the layout knows, and any
   * its state lists), its state and its index entry are deleted first; then `record` (status `removed`) goes into the
   * manifest. Without it the outputs stay, and after the line the state (when it is the record's source's) is marked
   * `removedAt`. Resolves with the keys deleted. Safe to repeat: a removal interrupted part way is finished by the next.
   */
  removeDocument(relativePath: string, removal: { deleteOutputs: boolean; record: ManifestEntry }): Promise<string[]>;
  /**
   * Every document state recorded in the store (one per converted source path), in no particular order; those whose
   * state key (layout.ts stateKey) `skip` accepts are passed over unread, which on S3 saves a GET each.
   */
  documentStates(skip?: (stateKey: string) => boolean): AsyncIterable<DocumentState>;
  /**
   * Work files below `_docmill/ranges/` (a long PDF's page ranges and their checkpointed results), readable by every
   * worker of the store: written atomically, read back as bytes (undefined when absent), deleted when merged.
   */
  writeWorkFile(key: string, body: string | Uint8Array): Promise<void>;
  readWorkFile(key: string): Promise<Uint8Array | undefined>;
  deleteWorkFiles(keys: readonly string[]): Promise<void>;
  /** Reads the failures recorded so far (for `docmill failed`). */
  readFailures(): AsyncIterable<ManifestEntry>;
  close(): Promise<void>;
}
