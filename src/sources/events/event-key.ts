/**
 * Object keys as notifications carry them: form-URL-encoded (`red flower.jpg` arrives as `red+flower.jpg`, `ü` as
 * `%C3%BC`, a real `+` as `%2B`). A run of escapes that is not valid UTF-8 is kept as it is rather than guessed at:
 * the key then names no object, and the event ends as "no longer exists", which is logged.
 */
export function decodeEventKey(raw: string): string {
  const spaced = raw.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/** The form-URL encoding S3 applies to keys in notifications (tests and tools that build messages use it). */
export function encodeEventKey(key: string): string {
  return encodeURIComponent(key).replaceAll('%20', '+').replaceAll('%2F', '/');
}
