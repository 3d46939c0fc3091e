/**
 * What every docmill HTTP server (`docmill serve`, and the metrics, health and dashboard endpoint) allows one
 * connection before any handler runs: header size, and how long a client may take to send its headers and its
 * whole request. Node enforces them; these numbers say why they are what they are.
 */
import type { ServerOptions } from 'node:http';
import { MAX_TIMEOUT_MS } from '../contract/limits.js';

/**
 * The request line and headers together: Node's own default (16 KiB), stated so a `--max-http-header-size` flag
 * cannot raise it unseen. A bearer key and a multipart content type need well under 1 KiB; more is answered 431.
 */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * Time from a request's first byte to the end of its headers. An honest client sends its headers (under 16 KiB) in
 * one write, in well under a second even over a slow link; a client trickling them byte by byte (slowloris) holds a
 * connection for nothing. Node's default is 60 s.
 */
export const HEADERS_TIMEOUT_MS = 10_000;

/**
 * How often Node looks for connections past those deadlines (its default, 30 s, would let a 10 s deadline run to
 * 40 s). A request is cut between its deadline and one interval later.
 */
export const CONNECTION_CHECK_INTERVAL_MS = 1_000;

/**
 * Time from a parse request's first byte to the end of its body. The contract's longest `timeout` (300 s) counts
 * from the request's arrival, upload included, so no upload slower than that can ever succeed; this deadline is that
 * plus the headers' allowance, and cuts nothing that could. A 50 MiB upload fits in it down to ~1.4 Mbit/s. The
 * parse itself comes after the body and is bounded by the request's `timeout`, not by this.
 */
export const PARSE_REQUEST_TIMEOUT_MS = MAX_TIMEOUT_MS + HEADERS_TIMEOUT_MS;

/**
 * Time from a request's first byte to the end of its body on the metrics endpoint: its only bodies are the queue
 * dashboard's JSON (1 MiB at most), sent by a browser on an operator's network.
 */
export const METRICS_REQUEST_TIMEOUT_MS = 30_000;

export interface RequestDeadlines {
  /** From the first byte of a request to the end of its headers. @default HEADERS_TIMEOUT_MS */
  headersMs: number;
  /** From the first byte of a request to the end of its body (at least `headersMs`). */
  requestMs: number;
}

/** The options of `http.createServer` that apply these limits. */
export function connectionLimits(deadlines: RequestDeadlines): ServerOptions {
  if (!(deadlines.headersMs > 0) || !(deadlines.requestMs >= deadlines.headersMs)) {
    throw new RangeError(`request deadlines must be positive, the whole request's at least the headers' (got ${deadlines.headersMs} and ${deadlines.requestMs} ms)`);
  }
  return {
    maxHeaderSize: MAX_HEADER_BYTES,
    headersTimeout: deadlines.headersMs,
    requestTimeout: deadlines.requestMs,
    connectionsCheckingInterval: Math.min(CONNECTION_CHECK_INTERVAL_MS, deadlines.headersMs),
  };
}
