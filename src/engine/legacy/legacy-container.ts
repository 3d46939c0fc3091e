/**
 * Opens the compound file of a legacy Word or PowerPoint document, or says what the file really is when it is not
 * one: an encrypted OOXML package (an OLE2 container with EncryptionInfo) is ENCRYPTED_DOCUMENT, another Office
 * binary UNSUPPORTED_FILE naming it; a file that is no OLE2 container is named by the engine's sniffer
 * (bytes/sniff.ts): another document type is UNSUPPORTED_FILE, anything else CORRUPT_DOCUMENT with what it looks like.
 */
import { EngineError } from '../engine-error.js';
import { sniffBytes, TYPE_DESCRIPTIONS } from '../bytes/sniff.js';
import { type CompoundFile, isCompoundFile, openCompoundFile } from './cfb.js';

export type LegacyKind = 'word' | 'powerpoint';

const MAIN_STREAM: Record<LegacyKind, string> = { word: 'WordDocument', powerpoint: 'PowerPoint Document' };
const NAME: Record<LegacyKind, string> = { word: TYPE_DESCRIPTIONS.doc, powerpoint: TYPE_DESCRIPTIONS.ppt };

/** Streams that say which Office binary an OLE2 container is. */
const OTHER_BINARIES: [stream: string, what: string][] = [
  ['WordDocument', TYPE_DESCRIPTIONS.doc],
  ['PowerPoint Document', TYPE_DESCRIPTIONS.ppt],
  ['Workbook', TYPE_DESCRIPTIONS.xls],
  ['Book', 'an Excel 5.0/95 workbook'],
];

export function openLegacyContainer(bytes: Uint8Array, kind: LegacyKind): CompoundFile {
  if (!isCompoundFile(bytes)) throw notAContainer(bytes, kind);
  const container = openCompoundFile(bytes);
  if (container.has('EncryptionInfo') || container.has('EncryptedPackage')) {
    throw new EngineError('ENCRYPTED_DOCUMENT', 'the document is password-protected (an encrypted Office file); remove the password and try again');
  }
  if (!container.has(MAIN_STREAM[kind])) {
    const other = OTHER_BINARIES.find(([stream]) => container.has(stream));
    if (other !== undefined) throw new EngineError('UNSUPPORTED_FILE', `the file is ${other[1]}, not ${NAME[kind]}`);
    throw new EngineError('CORRUPT_DOCUMENT', `not ${NAME[kind]}: the OLE2 container has no ${MAIN_STREAM[kind]} stream`);
  }
  return container;
}

/** The error for a file that is not an OLE2 container at all, from what the engine's sniffer says it is. */
function notAContainer(bytes: Uint8Array, kind: LegacyKind): EngineError {
  const real = sniffBytes(bytes);
  switch (real.kind) {
    case 'document':
      return new EngineError('UNSUPPORTED_FILE', `the file is ${TYPE_DESCRIPTIONS[real.type]}, not ${NAME[kind]}`);
    case 'encrypted':
      return new EngineError('ENCRYPTED_DOCUMENT', `the file is ${real.what}; remove the password and try again`);
    case 'empty':
      return new EngineError('EMPTY_DOCUMENT', `the file is empty: ${real.what}`);
    case 'damaged':
      return new EngineError('CORRUPT_DOCUMENT', `not ${NAME[kind]}: the file is ${real.what}`);
    case 'other':
      return new EngineError('CORRUPT_DOCUMENT', `not ${NAME[kind]}: the file is not an OLE2 compound file (it looks like ${real.looksLike})`);
  }
}
