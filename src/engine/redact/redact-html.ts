/**
 * Redaction of HTML (the `html` and `rawHtml` formats): text between tags and attribute values are redacted each on
 * its own, the markup never, so a name at the end of `<title>` cannot take `</title>` with it and the document
 * still parses. Comments, scripts and styles are text too: they can leak as much as the body.
 */
import type { TextRedactor } from './text-redactor.js';

const TAG = /<[^<>]*>/g;
const ATTRIBUTE_VALUE = /(=\s*)(?:"([^"]*)"|'([^']*)')/g;

export function redactHtml(html: string, redact: TextRedactor): string {
  let result = '';
  let cursor = 0;
  for (const match of html.matchAll(TAG)) {
    result += redact(html.slice(cursor, match.index)) + redactAttributes(match[0], redact);
    cursor = match.index + match[0].length;
  }
  return result + redact(html.slice(cursor));
}

function redactAttributes(tag: string, redact: TextRedactor): string {
  return tag.replace(ATTRIBUTE_VALUE, (_whole, equals: string, double: string | undefined, single: string | undefined) =>
    double !== undefined ? `${equals}"${redact(double)}"` : `${equals}'${redact(single ?? '')}'`,
  );
}
