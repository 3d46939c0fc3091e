/**
 * Folders of docmill's own outputs below a source: an output folder of an earlier run (`run . --out ./md-v1`, then
 * `run . --out ./md-v2`), or the records folder of the source itself when the source is an output folder. Their
 * files are docmill's Markdown, JSON, pictures and bookkeeping (the embedded Redis's files among them), never the
 * user's documents: listed, each would be reported "not converted" and recorded, thousands of manifest lines for
 * an earlier run of thousands of documents. A walk leaves such a folder out whole, and says so once.
 *
 * Known by the records folder an output folder holds, `_docmill/`, with one of the files or folders only docmill
 * writes there: a folder a user happens to name `_docmill` holds none of them.
 */
import { readdirSync } from 'node:fs';
import { RECORDS_FOLDER } from '../common/records-folder.js';
import { childPath, entryName, type FsPath } from './byte-paths.js';

/** Names docmill writes in an output folder's `_docmill/` (the file-system store's layout, store/layout.ts). */
const RECORD_NAMES: ReadonlySet<string> = new Set(['manifest.jsonl', 'records.jsonl', 'failures.jsonl', 'state', 'index', 'ranges', 'redis', 'tmp']);

/** Whether `folder` (a `_docmill` folder) holds docmill's records; false when it cannot be read. */
function holdsDocmillRecords(folder: FsPath): boolean {
  try {
    return readdirSync(folder).some((name) => RECORD_NAMES.has(name));
  } catch {
    return false;
  }
}

const RECORDS_NAME = entryName(Buffer.from(RECORDS_FOLDER));

/**
 * Whether the folder at `path`, named `name`, is a docmill output folder (it holds `_docmill/` with records in it), or
 * such a `_docmill/`. `hasRecordsFolder`: whether it has a `_docmill` entry at all, when the caller has its listing.
 */
export function isDocmillFolder(path: FsPath, name: string, hasRecordsFolder?: boolean): boolean {
  if (name === RECORDS_FOLDER && holdsDocmillRecords(path)) return true;
  return hasRecordsFolder !== false && holdsDocmillRecords(childPath(path, RECORDS_NAME));
}
