/** E-mail addresses: a local part, an @ and a dotted domain ending in an alphabetic top-level domain. */
import type { PiiSpan } from './entities.js';

const EMAIL_PATTERN = /(?<![\w.%+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.){1,8}[A-Za-z]{2,24}(?![\w-])/g;

/** `logo@2x.png` is an asset name: a file extension is no top-level domain anyone mails to. */
const FILE_EXTENSION = /\.(?:png|jpe?g|gif|svg|webp|bmp|ico|tiff?|pdf|css|js|json|html?|txt|md|zip)$/i;

export function findEmails(text: string): PiiSpan[] {
  return [...text.matchAll(EMAIL_PATTERN)]
    .filter((match) => !FILE_EXTENSION.test(match[0]))
    .map((match) => ({ start: match.index, end: match.index + match[0].length, entity: 'EMAIL' as const }));
}
