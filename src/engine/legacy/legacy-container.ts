/**
 * The compound file of a legacy Word or PowerPoint document, as the router's sniffer opened it (bytes/cfb.ts), or
 * the error for a file that is not one (bytes/verdict.ts): another document type is UNSUPPORTED_FILE naming it, an
 * encrypted OOXML package ENCRYPTED_DOCUMENT, a damaged container or no document at all CORRUPT_DOCUMENT.
 */
import type { CompoundFile } from '../bytes/cfb.js';
import { sniffedOf, TYPE_DESCRIPTIONS } from '../bytes/sniff.js';
import { requireType } from '../bytes/verdict.js';
import { EngineError } from '../engine-error.js';
import type { ConvertInput } from '../model.js';

export type LegacyKind = 'word' | 'powerpoint';

const TYPE = { word: 'doc', powerpoint: 'ppt' } as const;

export function openLegacyContainer(input: ConvertInput, kind: LegacyKind): CompoundFile {
  const sniffed = sniffedOf(input);
  requireType(sniffed, [TYPE[kind]], TYPE_DESCRIPTIONS[TYPE[kind]]);
  const container = sniffed.cfb;
  if (container === undefined) throw new EngineError('CORRUPT_DOCUMENT', `the file is not ${TYPE_DESCRIPTIONS[TYPE[kind]]}: it is no OLE2 compound file`);
  // One of the two streams of an encrypted package without the other: still no readable document.
  if (container.has('EncryptionInfo') || container.has('EncryptedPackage')) {
    throw new EngineError('ENCRYPTED_DOCUMENT', 'the document is password-protected (an encrypted Office file); remove the password and try again');
  }
  return container;
}
