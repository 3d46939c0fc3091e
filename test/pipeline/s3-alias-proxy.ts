/**
 * A tiny HTTP proxy in front of s3rver that makes it look as if it held keys it cannot store.
 *
 * AWS S3 accepts any key, `docs/../evil.html` and `docs//abs.html` included; s3rver keeps objects as files, so it
 * normalises the first to `evil.html` and refuses the second. To send such keys through docmill's S3 source
 * anyway, the objects are stored under plain keys and the proxy shows them under their hostile aliases: in
 * ListObjectsV2 answers the plain key is replaced by the alias, and a GET/HEAD of the alias is forwarded as the
 * plain key (without the signature, which covered the alias path; s3rver serves anonymous reads). Everything else
 * goes through untouched, Host header included, so signed writes stay valid.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { listenOnLoopback } from '../helpers/loopback-http.js';

export interface AliasProxy {
  endpoint: string;
  close(): Promise<void>;
}

/** `aliases` maps a hostile key to the plain key it is stored under, both in `bucket`. */
export async function startAliasProxy(target: string, bucket: string, aliases: Record<string, string>): Promise<AliasProxy> {
  const upstream = new URL(target);
  const byAliasPath = new Map(Object.entries(aliases).map(([alias, plain]) => [`/${bucket}/${alias}`, `/${bucket}/${encodeKey(plain)}`]));
  const server: Server = createServer((req, res) => {
    const rawUrl = req.url ?? '/';
    const queryAt = rawUrl.indexOf('?');
    const path = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
    const query = queryAt === -1 ? '' : rawUrl.slice(queryAt);
    const headers = { ...req.headers };
    let forwardPath = rawUrl;
    const plainPath = byAliasPath.get(safeDecode(path));
    if (plainPath && (req.method === 'GET' || req.method === 'HEAD')) {
      forwardPath = plainPath + query;
      delete headers.authorization;
    }
    const isListing = req.method === 'GET' && (path === `/${bucket}` || path === `/${bucket}/`) && /list-type=2/.test(query);
    const outgoing = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: forwardPath, headers },
      (reply) => {
        if (!isListing) {
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(res);
          return;
        }
        void readAll(reply).then((body) => {
          let xml = body.toString('utf8');
          for (const [alias, plain] of Object.entries(aliases)) {
            xml = xml.split(`<Key>${escapeXml(plain)}</Key>`).join(`<Key>${escapeXml(alias)}</Key>`);
          }
          const bytes = Buffer.from(xml, 'utf8');
          res.writeHead(reply.statusCode ?? 502, { ...reply.headers, 'content-length': String(bytes.length) });
          res.end(bytes);
        });
      },
    );
    outgoing.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`alias proxy: ${error.message}`);
    });
    req.pipe(outgoing);
  });
  const listening = await listenOnLoopback(server);
  return { endpoint: listening.url, close: listening.close };
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}
