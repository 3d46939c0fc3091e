/**
 * Opens the compound file of a legacy Word or PowerPoint document, or says what the file really is when it is not
 * one: an encrypted OOXML package (an OLE2 container with EncryptionInfo) is ENCRYPTED_DOCUMENT, another Office
 * binary, a zip package, a PDF, RTF or HTML file is UNSUPPORTED_FILE naming it, anything else CORRUPT_DOCUMENT.
 */
import { EngineError } from '../engine-error.js';
import { sniffFormat } from '../sniff.js';
import { type CompoundFile, isCompoundFile, openCompoundFile } from './cfb.js';

export type LegacyKind = 'word' | 'powerpoint';

const MAIN_STREAM: Record<LegacyKind, string> = { word: 'WordDocument', powerpoint: 'PowerPoint Document' };
const NAME: Record<LegacyKind, string> = { word: 'a Word 97-2003 document', powerpoint: 'a PowerPoint 97-2003 presentation' };

const RTF = /^\s*\{\\rtf/;

/** Streams that say which Office binary an OLE2 container is. */
const OTHER_BINARIES: [stream: string, what: string][] = [
  ['WordDocument', 'a Word 97-2003 document'],
  ['PowerPoint Document', 'a PowerPoint 97-2003 presentation'],
  ['Workbook', 'an Excel 97-2003 workbook'],
  ['Book', 'an Excel 5.0/95 workbook'],
];

const PACKAGES: Partial<Record<ReturnType<typeof sniffFormat>, string>> = {
  'zip-docx': 'a Word .docx package',
  'zip-xlsx': 'an Excel workbook package',
  'zip-pptx': 'a PowerPoint .pptx package',
  'zip-odf': 'an OpenDocument file',
  'zip-epub': 'an EPUB e-book',
  pdf: 'a PDF document',
  html: 'a web page (HTML)',
};

export function openLegacyContainer(bytes: Uint8Array, kind: LegacyKind): CompoundFile {
  if (!isCompoundFile(bytes)) {
    // Word saves RTF under a .doc name when asked to; so do many tools.
    if (RTF.test(new TextDecoder('latin1').decode(bytes.subarray(0, 16)))) {
      throw new EngineError('UNSUPPORTED_FILE', `the file is an RTF document, not ${NAME[kind]}`);
    }
    const other = PACKAGES[sniffFormat(bytes)];
    if (other !== undefined) throw new EngineError('UNSUPPORTED_FILE', `the file is ${other}, not ${NAME[kind]}`);
    throw new EngineError('CORRUPT_DOCUMENT', `not ${NAME[kind]}: the file is not an OLE2 compound file (its signature is missing)`);
  }
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
