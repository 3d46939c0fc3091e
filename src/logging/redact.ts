/**
 * Secret scrubbing for every line docmill writes: log lines, error messages, debug dumps. Path-based redaction
 * (pino's `redact`) misses a key quoted inside an error message or a stack; scrubbing the text itself does not.
 */
export const REDACTED = '[REDACTED]';

const BEARER_PATTERN = /\b(Bearer\s+)[^\s"'\\,;]+/gi;

export class SecretScrubber {
  readonly #secrets = new Set<string>();

  /** Adds a value that must never be printed (an API key). Empty values are ignored. */
  add(secret: string | undefined): void {
    if (secret) this.#secrets.add(secret);
  }

  scrub(text: string): string {
    let result = text.replace(BEARER_PATTERN, `$1${REDACTED}`);
    for (const secret of this.#secrets) {
      if (result.includes(secret)) result = result.split(secret).join(REDACTED);
      // JSON output escapes some characters; scrub the escaped form too.
      const escaped = JSON.stringify(secret).slice(1, -1);
      if (escaped !== secret && result.includes(escaped)) result = result.split(escaped).join(REDACTED);
    }
    return result;
  }
}

/** The process-wide scrubber: the CLI registers keys here as soon as it reads them. */
export const secrets = new SecretScrubber();
