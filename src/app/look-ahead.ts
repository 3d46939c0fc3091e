/**
 * What a command's first documents are, seen before it loads its work, for the engine's head start
 * (engine-head-start.ts): the converters they ask for, so that the threads load those meanwhile, and, when the look
 * saw every entry, how many files there are, so that a run of a few files starts no more threads than it has files.
 * A guess, and a cheap one: the first entries of a local folder, breadth first, read a few at a time (a folder of a
 * million files is not listed whole); an S3 source, or one that cannot be read, gives nothing. The listing proper
 * (sources/) decides what is converted.
 */
import { opendirSync, statSync, type Dir } from 'node:fs';
import { join } from 'node:path';
import { isS3Location } from '../common/s3-location.js';
import { converterNamedBy, type ConverterName } from '../engine/route.js';

/** Entries looked at in all, and folders opened: a few milliseconds on a local disk. */
const MAX_ENTRIES = 64;
const MAX_FOLDERS = 8;

export interface LookAhead {
  /** The converters the files found ask for by their names. */
  converters: ConverterName[];
  /**
   * The files below the source, when the look saw every entry: names starting with `.` or `_` (docmill's own
   * `_docmill`) left out, as for the converters; a file source is one. Undefined when the look stopped before the end,
   * or could not look (S3, a path not there, a folder it cannot read).
   */
  files: number | undefined;
}

/** What the look finds below `source` (a folder or a file). */
export function lookAhead(source: string): LookAhead {
  const found = new Set<ConverterName>();
  const add = (name: string) => {
    const converter = converterNamedBy(name);
    if (converter) found.add(converter);
  };
  if (isS3Location(source)) return { converters: [], files: undefined };
  try {
    if (!statSync(source).isDirectory()) {
      add(source);
      return { converters: [...found], files: 1 };
    }
  } catch {
    return { converters: [], files: undefined };
  }
  const folders = [source];
  let entries = 0;
  let files = 0;
  let wholly = true;
  for (let opened = 0; opened < MAX_FOLDERS && folders.length > 0 && entries < MAX_ENTRIES; opened++) {
    const folder = folders.shift()!;
    let dir: Dir | undefined;
    try {
      dir = opendirSync(folder);
      let entry = dir.readSync();
      for (; entry !== null && entries < MAX_ENTRIES; entry = dir.readSync()) {
        entries++;
        if (entry.name.startsWith('.') || entry.name.startsWith('_')) continue;
        if (entry.isDirectory()) folders.push(join(folder, entry.name));
        else {
          files++;
          add(entry.name);
        }
      }
      if (entry !== null) wholly = false;
    } catch {
      // An unreadable folder says nothing; the listing will say what is wrong with it.
      wholly = false;
    } finally {
      dir?.closeSync();
    }
  }
  if (folders.length > 0) wholly = false;
  return { converters: [...found], files: wholly ? files : undefined };
}
