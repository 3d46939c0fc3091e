/**
 * Secret scrubbing for every line docmill writes: log lines, error messages, debug dumps. Path-based redaction
 * (pino's `redact`) misses a key quoted inside an error message or a stack; scrubbing the text itself does not.
 *
 * Where a registered key is looked for depends on its length:
 * - A key of at least `MIN_SCRUBBED_ANYWHERE` characters is replaced wherever it appears, inside other text too (an
 *   error message quoting a URL that carries it): a string that long does not turn up inside ordinary words by
 *   chance.
 * - A shorter key (`k`, `dev`: common in tests and local setups) does: replaced everywhere, `k` would take the k
 *   out of "worker" on every line. It is replaced only where it stands as a value: as a whole quoted string
 *   (`"apiKey":"k"`, `['k']`), or as the whole value after `=`, `:` or `Bearer` (`key=k&`, `x-api-key: k`,
 *   `Bearer k`). A short key elsewhere in free text is left, since no rule can tell it from a letter of a word.
 *
 * Any bearer token is scrubbed, registered or not. JSON output escapes some characters, so the JSON-escaped form of
 * a key is looked for too, and a long key's URL-encoded form.
 */
import { escapeRegExp } from '../common/escape-regexp.js';

export const REDACTED = '[REDACTED]';

/** Keys this long or longer are scrubbed wherever they appear; shorter ones only where they stand as a value. */
export const MIN_SCRUBBED_ANYWHERE = 8;

const BEARER_PATTERN = /\b(Bearer\s+)[^\s"'\\,;]+/gi;
/** What may follow a value: the end, white space, or a character that closes or separates values. */
const VALUE_END = String.raw`(?=$|[\s&"',;)\]}@<>#\\])`;

export class SecretScrubber {
  readonly #secrets = new Map<string, Scrub>();

  /** Adds a value that must never be printed (an API key). Empty values are ignored. */
  add(secret: string | undefined): void {
    if (secret && !this.#secrets.has(secret)) this.#secrets.set(secret, scrubberFor(secret));
  }

  scrub(text: string): string {
    let result = text.replace(BEARER_PATTERN, `$1${REDACTED}`);
    for (const scrub of this.#secrets.values()) result = scrub(result);
    return result;
  }
}

type Scrub = (text: string) => string;

function scrubberFor(secret: string): Scrub {
  const forms = [...new Set([secret, JSON.stringify(secret).slice(1, -1), ...(secret.length >= MIN_SCRUBBED_ANYWHERE ? [encodeURIComponent(secret)] : [])])];
  if (secret.length >= MIN_SCRUBBED_ANYWHERE) {
    return (text) => forms.reduce((result, form) => (result.includes(form) ? result.split(form).join(REDACTED) : result), text);
  }
  const patterns = forms.flatMap((form) => {
    const value = escapeRegExp(form);
    return [
      // A whole quoted string: a JSON field's value, an item of a list, a quoted header value.
      { pattern: new RegExp(String.raw`(^|[\s\[,:=({])(["'])${value}\2`, 'gm'), replacement: `$1$2${REDACTED}$2` },
      // The whole value after a label: key=k, x-api-key: k, Bearer k, or a line that is the key alone.
      { pattern: new RegExp(String.raw`(^|[=:]|\bBearer)([ \t]*)${value}${VALUE_END}`, 'gm'), replacement: `$1$2${REDACTED}` },
    ];
  });
  return (text) => (forms.some((form) => text.includes(form)) ? patterns.reduce((result, { pattern, replacement }) => result.replace(pattern, replacement), text) : text);
}

/** The process-wide scrubber: the CLI registers keys here as soon as it reads them. */
export const secrets = new SecretScrubber();
