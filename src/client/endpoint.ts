/**
 * Turns a user's base URL into the /v2/parse endpoint. Accepts the base (`https://api.example.com`), a base with
 * a path prefix, `…/v2`, or the full `…/v2/parse`, since users paste all four.
 */
import { DocmillError } from '../errors/docmill-error.js';

export class InvalidApiUrlError extends DocmillError {
  constructor(reason: string) {
    super('CONFIG_INVALID_API_URL', `Invalid API URL: ${reason}`);
  }
}

export function parseEndpoint(apiUrl: string): URL {
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new InvalidApiUrlError('not an absolute URL (expected something like https://api.example.com)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidApiUrlError(`the scheme must be http or https, not ${url.protocol.replace(':', '')}`);
  }
  if (url.username || url.password) {
    throw new InvalidApiUrlError('credentials in the URL are not supported; pass the key with --api-key');
  }
  url.search = '';
  url.hash = '';
  const path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith('/v2/parse')) url.pathname = path;
  else url.pathname = path.endsWith('/v2') ? `${path}/parse` : `${path}/v2/parse`;
  return url;
}
