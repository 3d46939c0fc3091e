/**
 * Who may open the queue dashboard on `docmill serve`: the holders of the server's bearer keys. A script sends the
 * key as `Authorization: Bearer <key>`; a browser cannot, so its first visit carries `?key=<key>`, which is traded
 * for a random session token in an HttpOnly cookie and taken out of the address by a redirect. The key itself is
 * never stored in the cookie, logged or echoed.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const DASHBOARD_COOKIE = 'docmill_dashboard';
const SESSION_MS = 12 * 60 * 60 * 1000;
const MAX_SESSIONS = 1000;

export interface DashboardMount {
  readonly basePath: string;
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
}

export class DashboardAccess {
  /** Session token digest → when it expires. */
  readonly #sessions = new Map<string, number>();

  /** `keyMatches`: whether a presented key is one of the server's (undefined when the server has no keys). */
  constructor(
    private readonly mount: DashboardMount,
    private readonly keyMatches: ((presented: string) => boolean) | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  owns(path: string): boolean {
    return path === this.mount.basePath || path.startsWith(`${this.mount.basePath}/`);
  }

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (this.keyMatches === undefined || this.#bearerAccepted(request) || this.#sessionAccepted(request)) {
      await this.mount.handle(request, response);
      return;
    }
    const url = new URL(request.url ?? '/', 'http://dashboard.invalid');
    const key = url.searchParams.get('key');
    if (key !== null && (request.method === 'GET' || request.method === 'HEAD') && this.keyMatches(key)) {
      const token = this.#openSession();
      url.searchParams.delete('key');
      response.writeHead(303, {
        location: `${url.pathname}${url.search}`,
        'set-cookie': `${DASHBOARD_COOKIE}=${token}; Path=${this.mount.basePath}; HttpOnly; SameSite=Lax; Max-Age=${SESSION_MS / 1000}`,
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      });
      response.end();
      return;
    }
    request.resume();
    const text = `Unauthorized: send "Authorization: Bearer <key>" with one of the server's keys, or open ${this.mount.basePath}?key=<key> once in a browser\n`;
    response.writeHead(401, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'www-authenticate': 'Bearer',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
    response.end(text);
  }

  #bearerAccepted(request: IncomingMessage): boolean {
    const match = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '');
    return Boolean(match?.[1] && this.keyMatches?.(match[1].trim()));
  }

  #sessionAccepted(request: IncomingMessage): boolean {
    const token = cookie(request, DASHBOARD_COOKIE);
    if (!token) return false;
    const id = digest(token);
    const expires = this.#sessions.get(id);
    if (expires === undefined) return false;
    if (expires <= this.now()) {
      this.#sessions.delete(id);
      return false;
    }
    return true;
  }

  #openSession(): string {
    const now = this.now();
    for (const [id, expires] of this.#sessions) if (expires <= now) this.#sessions.delete(id);
    // The oldest session makes room: a flood of logins cannot grow the map without bound.
    while (this.#sessions.size >= MAX_SESSIONS) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.#sessions.delete(oldest);
    }
    const token = randomBytes(32).toString('base64url');
    this.#sessions.set(digest(token), now + SESSION_MS);
    return token;
  }
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function cookie(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}
