/**
 * The one mapping from a sniff verdict to the error a user gets, shared by the router (route.ts) and by the
 * converters, which check what they were handed against the verdict the router already reached (never by
 * sniffing again): the same file gets the same code and words wherever it is refused.
 */
import { EngineError } from '../engine-error.js';
import { type DocumentType, type RealType, type Sniffed, TYPE_DESCRIPTIONS } from './sniff.js';
import { tooLarge, type ZipArchive } from './zip.js';

/**
 * The error for a verdict that is no document the engine reads: EMPTY_DOCUMENT, ENCRYPTED_DOCUMENT,
 * CORRUPT_DOCUMENT (damaged, or no document at all) or DOCUMENT_TOO_COMPLEX (a package crossing the zip limits).
 * `claim` is what the file was expected to be ("a Word document").
 */
export function refusal(real: Exclude<RealType, { kind: 'document' }>, claim: string): EngineError {
  switch (real.kind) {
    case 'empty':
      return new EngineError('EMPTY_DOCUMENT', `the file is empty: it is ${real.what}`);
    case 'encrypted':
      return new EngineError(
        'ENCRYPTED_DOCUMENT',
        `the file is password-protected: it is ${real.what}; remove the password and convert it again`,
      );
    case 'damaged':
      return new EngineError('CORRUPT_DOCUMENT', `the file is damaged or truncated: it is ${real.what}`);
    case 'too-large':
      return tooLarge(real.what);
    case 'other':
      return new EngineError('CORRUPT_DOCUMENT', `the file is not ${claim}: it looks like ${real.looksLike}`);
  }
}

/**
 * The file's type when it is one of `accepted`; otherwise UNSUPPORTED_FILE naming what it is ("the file is an RTF
 * document, not a Word 97-2003 document (.doc)"), or the verdict's refusal when it is no document.
 */
export function requireType(sniffed: Sniffed, accepted: readonly DocumentType[], claim: string): DocumentType {
  const { real } = sniffed;
  if (real.kind !== 'document') throw refusal(real, claim);
  if (!accepted.includes(real.type)) throw new EngineError('UNSUPPORTED_FILE', `the file is ${TYPE_DESCRIPTIONS[real.type]}, not ${claim}`);
  return real.type;
}

/** The zip archive of a package of one of `accepted` types (see requireType). */
export function requirePackage(sniffed: Sniffed, accepted: readonly DocumentType[], claim: string): ZipArchive {
  const type = requireType(sniffed, accepted, claim);
  if (sniffed.zip === undefined) throw new EngineError('CORRUPT_DOCUMENT', `the file is not ${claim}: it is ${TYPE_DESCRIPTIONS[type]} but no zip package`);
  return sniffed.zip;
}
