/**
 * bull-board's server adapter over plain node:http, so the queue dashboard mounts on docmill's own HTTP servers
 * (the metrics endpoint, `docmill serve`) without a web framework. It does what @bull-board/express does: the UI's
 * page, its static files, and the JSON API, with two refusals of its own: a read-only board answers 403 to every
 * request that could change a queue (bull-board's handlers do not check `readOnlyMode` themselves), and a static
 * path never leaves the UI's static folder.
 */
import { createReadStream } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type {
  AppControllerRoute,
  AppViewRoute,
  BullBoardQueues,
  ControllerHandlerReturnType,
  IServerAdapter,
  UIConfig,
} from '@bull-board/api/typings/app';

/** The largest JSON body the board's API accepts (a job's data edited in the UI). */
const MAX_BODY_BYTES = 1024 * 1024;

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

/** Something that answers the requests under `basePath` on a node:http server. */
export interface HttpMount {
  readonly basePath: string;
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
}

export interface BoardAdapterOptions {
  /** Where the board is mounted, e.g. `/queues`. */
  basePath: string;
  /** Whether requests that change queue state (PUT, POST, PATCH, DELETE) are served. */
  write: boolean;
  /** Called before each API request (e.g. to refresh which queues are shown). */
  beforeApi?: () => Promise<void>;
  /** API routes (as bull-board declares them) refused even when writable, with the reason given. */
  refused?: { routes: readonly string[]; reason: string };
}

interface CompiledRoute {
  methods: string[];
  patterns: string[][];
  refused: boolean;
  handler: AppControllerRoute['handler'];
}

class RequestFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(`HTTP ${status}`);
  }
}

export class NodeHttpBoardAdapter implements IServerAdapter, HttpMount {
  readonly basePath: string;
  readonly #options: BoardAdapterOptions;
  #queues: BullBoardQueues | undefined;
  #uiConfig: UIConfig = {};
  #viewsPath: string | undefined;
  #staticRoute = '/static';
  #staticRoot: string | undefined;
  #realStaticRoot: Promise<string> | undefined;
  #entry: { route: AppViewRoute; patterns: string[][] } | undefined;
  #errorHandler: ((error: Error) => ControllerHandlerReturnType) | undefined;
  #apiRoutes: CompiledRoute[] = [];
  readonly #templates = new Map<string, Promise<string>>();

  constructor(options: BoardAdapterOptions) {
    if (!/^\/[A-Za-z0-9._~/-]*[^/]$/.test(options.basePath)) throw new RangeError(`bad dashboard path "${options.basePath}"`);
    this.basePath = options.basePath;
    this.#options = options;
  }

  setQueues(bullBoardQueues: BullBoardQueues): this {
    this.#queues = bullBoardQueues;
    return this;
  }

  setViewsPath(viewPath: string): this {
    this.#viewsPath = viewPath;
    return this;
  }

  setStaticPath(staticsRoute: string, staticsPath: string): this {
    this.#staticRoute = staticsRoute.replace(/\/+$/, '');
    this.#staticRoot = resolve(staticsPath);
    this.#realStaticRoot = undefined;
    return this;
  }

  setEntryRoute(route: AppViewRoute): this {
    this.#entry = { route, patterns: toArray(route.route).map(splitPattern) };
    return this;
  }

  setErrorHandler(handler: (error: Error) => ControllerHandlerReturnType): this {
    this.#errorHandler = handler;
    return this;
  }

  setApiRoutes(routes: AppControllerRoute[]): this {
    const refused = this.#options.refused?.routes ?? [];
    this.#apiRoutes = routes.map((route) => ({
      methods: toArray(route.method).map((method) => method.toUpperCase()),
      patterns: toArray(route.route).map(splitPattern),
      refused: toArray(route.route).some((path) => refused.includes(path)),
      handler: route.handler,
    }));
    return this;
  }

  setUIConfig(config: UIConfig = {}): this {
    this.#uiConfig = config;
    return this;
  }

  /** Whether `pathname` belongs to this board (the mount itself, or anything below it). */
  owns(pathname: string): boolean {
    return pathname === this.basePath || pathname.startsWith(`${this.basePath}/`);
  }

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      await this.#route(request, response);
    } catch (error) {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      if (error instanceof RequestFailure) {
        sendJson(response, error.status, error.body, request.method === 'HEAD');
        return;
      }
      const answer = this.#errorHandler?.(error instanceof Error ? error : new Error(String(error))) ?? {
        status: 500,
        body: { error: { key: 'ERRORS.INTERNAL_SERVER_ERROR' } },
      };
      sendJson(response, answer.status ?? 500, answer.body, request.method === 'HEAD');
    }
  }

  async #route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://board.invalid');
    if (!this.owns(url.pathname)) throw notFound();
    const path = url.pathname.slice(this.basePath.length) || '/';
    const method = (request.method ?? 'GET').toUpperCase();
    const reading = method === 'GET' || method === 'HEAD';

    if (path.startsWith(`${this.#staticRoute}/`)) {
      if (!reading) throw methodNotAllowed();
      await this.#serveStatic(path.slice(this.#staticRoute.length + 1), request, response);
      return;
    }
    if (path === '/api' || path.startsWith('/api/')) {
      if (!reading) {
        if (!this.#options.write) {
          throw new RequestFailure(403, {
            error: { key: 'ERRORS.QUEUE_READ_ONLY' },
            message: 'this dashboard is read-only (start docmill with --dashboard-write to allow retry, clean, promote and remove)',
          });
        }
        refuseCrossSite(request);
      }
      await this.#serveApi(method, path, url.searchParams, request, response);
      return;
    }
    if (!reading) throw methodNotAllowed();
    const entry = this.#entry;
    if (!entry || !entry.patterns.some((pattern) => matchPattern(pattern, path) !== undefined)) throw notFound();
    await this.#serveEntry(entry.route, request, response);
  }

  async #serveApi(method: string, path: string, search: URLSearchParams, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const lookup = method === 'HEAD' ? 'GET' : method;
    let route: CompiledRoute | undefined;
    let params: Record<string, string> | undefined;
    let pathKnown = false;
    for (const candidate of this.#apiRoutes) {
      for (const pattern of candidate.patterns) {
        const matched = matchPattern(pattern, path);
        if (matched === undefined) continue;
        pathKnown = true;
        if (candidate.methods.includes(lookup)) {
          route = candidate;
          params = matched;
          break;
        }
      }
      if (route) break;
    }
    if (!route || !params) throw pathKnown ? methodNotAllowed() : notFound();
    if (route.refused) throw new RequestFailure(403, { error: { key: 'ERRORS.FORBIDDEN' }, message: this.#options.refused?.reason });
    if (!this.#queues) throw new Error('the board has no queues');
    const body = lookup === 'GET' ? {} : await readJsonBody(request);
    await this.#options.beforeApi?.();
    const result = await route.handler({
      queues: this.#queues,
      uiConfig: this.#uiConfig,
      query: Object.fromEntries(search),
      params,
      body,
      headers: flatHeaders(request),
    });
    const status = result.status ?? 200;
    if (status === 204) {
      response.writeHead(204, { 'cache-control': 'no-store' }).end();
      return;
    }
    sendJson(response, status, result.body, method === 'HEAD');
  }

  async #serveEntry(route: AppViewRoute, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const { name, params } = route.handler({ basePath: this.basePath, uiConfig: this.#uiConfig });
    const html = renderTemplate(await this.#template(name), params);
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(html),
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    });
    response.end(request.method === 'HEAD' ? undefined : html);
  }

  #template(name: string): Promise<string> {
    if (!this.#viewsPath || !/^[A-Za-z0-9_.-]+\.ejs$/.test(name)) return Promise.reject(new Error(`no view "${name}"`));
    let template = this.#templates.get(name);
    if (!template) {
      template = readFile(join(this.#viewsPath, name), 'utf8');
      template.catch(() => this.#templates.delete(name));
      this.#templates.set(name, template);
    }
    return template;
  }

  async #serveStatic(encoded: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const root = this.#staticRoot;
    if (!root) throw notFound();
    let decoded: string;
    try {
      decoded = decodeURIComponent(encoded);
    } catch {
      throw notFound();
    }
    if (decoded === '' || decoded.includes('\0') || decoded.includes('\\')) throw notFound();
    const file = resolve(root, decoded);
    if (!inside(root, file)) throw notFound();
    let real: string;
    try {
      // A symbolic link inside the folder must not lead out of it either.
      this.#realStaticRoot ??= realpath(root);
      real = await realpath(file);
      if (!inside(await this.#realStaticRoot, real) || !(await stat(real)).isFile()) throw notFound();
    } catch {
      throw notFound();
    }
    const size = (await stat(real)).size;
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(real).toLowerCase()] ?? 'application/octet-stream',
      'content-length': size,
      // The UI's bundles carry a content hash in their names; the rest are tiny.
      'cache-control': 'public, max-age=3600',
      'x-content-type-options': 'nosniff',
    });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    await new Promise<void>((done) => {
      const stream = createReadStream(real);
      stream.on('error', () => {
        response.destroy();
        done();
      });
      response.on('close', () => {
        stream.destroy();
        done();
      });
      stream.pipe(response);
    });
  }
}

/**
 * Renders bull-board's index.ejs, which uses only `<%= name %>` (HTML-escaped here) and `<%- uiConfig %>` (JSON
 * that bull-board has already made safe inside a script element by escaping `<` and `>`). Any other EJS construct
 * (a newer UI template) is refused rather than served half-rendered. Stylesheets from other hosts (the template's
 * web fonts) are left out: the page must not reach outside an offline deployment, and the UI falls back to local fonts.
 */
export function renderTemplate(template: string, params: Record<string, string | undefined>): string {
  const rendered = withoutRemoteStylesheets(template).replace(/<%([=-])\s*([A-Za-z_][A-Za-z0-9_]*)\s*%>/g, (_tag, kind: string, name: string) => {
    const value = params[name] ?? '';
    if (kind === '=') return escapeHtml(value);
    if (name !== 'uiConfig') throw new Error(`the dashboard template prints "${name}" unescaped`);
    return value.replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
  });
  if (rendered.includes('<%')) throw new Error('the dashboard template uses EJS features this adapter does not render');
  return rendered;
}

function withoutRemoteStylesheets(template: string): string {
  return template.replace(/<link\b[^>]*\bhref="(?:https?:)?\/\/[^"]*"[^>]*>\s*/g, '');
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function toArray<T>(value: T | T[]): T[] {
  return Array.isArray(value) ? value : [value];
}

function splitPattern(route: string): string[] {
  return route.split('/').filter((segment) => segment !== '');
}

/** Express-style matching of `/a/:name/b` against a path; parameters are percent-decoded. */
function matchPattern(pattern: string[], path: string): Record<string, string> | undefined {
  const segments = path.split('/').filter((segment) => segment !== '');
  if (segments.length !== pattern.length) return undefined;
  const params: Record<string, string> = {};
  for (let index = 0; index < pattern.length; index++) {
    const expected = pattern[index] as string;
    const actual = segments[index] as string;
    if (expected.startsWith(':')) {
      try {
        params[expected.slice(1)] = decodeURIComponent(actual);
      } catch {
        return undefined;
      }
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return params;
}

function inside(root: string, file: string): boolean {
  const path = relative(root, file);
  return path !== '' && !path.startsWith(`..${sep}`) && path !== '..' && !isAbsolute(path);
}

/**
 * A page on another site may send a simple cross-site POST to a board it can reach; browsers send Origin with it,
 * and a board that changes state answers only its own pages (behind a proxy, the host the browser used arrives as
 * X-Forwarded-Host, a header no cross-site page can set without a preflight this board never answers).
 */
function refuseCrossSite(request: IncomingMessage): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined;
  }
  const forwarded = request.headers['x-forwarded-host'];
  const ours = [request.headers.host, ...(typeof forwarded === 'string' ? forwarded.split(',').map((value) => value.trim()) : [])];
  if (host === undefined || !ours.includes(host)) {
    throw new RequestFailure(403, { error: { key: 'ERRORS.FORBIDDEN' }, message: 'cross-origin requests may not change queues' });
  }
}

async function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const body = await readBody(request);
  const size = body.byteLength;
  if (size === 0) return {};
  const type = request.headers['content-type'] ?? '';
  // Forms can be posted across sites without a preflight; JSON cannot.
  if (!/^application\/json\b/i.test(type)) {
    throw new RequestFailure(415, { error: 'send the body as application/json' });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new RequestFailure(400, { error: 'the body is not valid JSON' });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new RequestFailure(400, { error: 'the body must be a JSON object' });
  }
  return parsed as Record<string, unknown>;
}

/**
 * The body, up to MAX_BODY_BYTES. Past that the rest is discarded (not read into memory, and the connection kept
 * so the client reads the 413); a body that ends with its connection is a 400 nobody may be left to read.
 */
function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (failure: RequestFailure | undefined): void => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('close', onClose);
      if (failure) reject(failure);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.byteLength;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      chunks.length = 0;
      stop(new RequestFailure(413, { error: 'the body is over 1 MiB' }));
      request.resume();
    };
    const onEnd = (): void => stop(undefined);
    const onError = (): void => stop(new RequestFailure(400, { error: 'the body ended early' }));
    const onClose = (): void => {
      if (!request.complete) onError();
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('close', onClose);
  });
}

function flatHeaders(request: IncomingMessage): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}

function notFound(): RequestFailure {
  return new RequestFailure(404, { error: 'Not Found' });
}

function methodNotAllowed(): RequestFailure {
  return new RequestFailure(405, { error: 'Method Not Allowed' });
}

function sendJson(response: ServerResponse, status: number, body: unknown, headOnly: boolean): void {
  // The client is gone: nobody is left to answer.
  if (response.destroyed) return;
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(headOnly ? undefined : text);
}
