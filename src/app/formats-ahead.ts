/**
 * The formats a command's first documents are in, seen before it loads its work: the engine's head start
 * (engine-head-start.ts) has its threads load their converters while the command loads the queue. A guess, and a
 * cheap one: the first entries of a local folder, breadth first, read a few at a time (a folder of a million files
 * is not listed whole); an S3 source, or one that cannot be read, gives none. The listing proper (sources/) decides
 * what is converted.
 */
import { opendirSync, statSync, type Dir } from 'node:fs';
import { join } from 'node:path';
import { isS3Location } from '../common/s3-location.js';
import { converterNamedBy, type ConverterName } from '../engine/route.js';

/** Entries looked at in all, and folders opened: a few milliseconds on a local disk. */
const MAX_ENTRIES = 64;
const MAX_FOLDERS = 8;

/** The converters the files first found below `source` (a folder or a file) ask for by their names. */
export function formatsAhead(source: string): ConverterName[] {
  if (isS3Location(source)) return [];
  const found = new Set<ConverterName>();
  const add = (name: string) => {
    const converter = converterNamedBy(name);
    if (converter) found.add(converter);
  };
  try {
    if (!statSync(source).isDirectory()) {
      add(source);
      return [...found];
    }
  } catch {
    return [];
  }
  const folders = [source];
  let entries = 0;
  for (let opened = 0; opened < MAX_FOLDERS && folders.length > 0 && entries < MAX_ENTRIES; opened++) {
    const folder = folders.shift()!;
    let dir: Dir | undefined;
    try {
      dir = opendirSync(folder);
      for (let entry = dir.readSync(); entry !== null && entries < MAX_ENTRIES; entry = dir.readSync()) {
        entries++;
        if (entry.name.startsWith('.') || entry.name.startsWith('_')) continue;
        if (entry.isDirectory()) folders.push(join(folder, entry.name));
        else add(entry.name);
      }
    } catch {
      // An unreadable folder says nothing; the listing will say what is wrong with it.
    } finally {
      dir?.closeSync();
    }
  }
  return [...found];
}
