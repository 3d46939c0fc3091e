/**
 * Regression: with a wrong key and `--concurrency 8`, a run sent 10 requests — one per open job — because each job
 * that had started before the first 401 waited for an API gate slot and was let through as the previous 401 freed
 * it. After the first refusal of the key (401, or 403) nothing more leaves the client: not a request that waited for
 * a slot, not another file's, not a retry of the client's own loop. A real loopback server that answers only when
 * the test says so, and the adaptive gate the pipeline uses.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForbiddenError, UnauthorizedError, type ParseApiError } from '../../src/backend/errors.js';
import type { AttemptOutcome, ParseCall } from '../../src/backend/parse-backend.js';
import type { Clock } from '../../src/client/clock.js';
import { RemoteParseApi } from '../../src/client/remote-parse-api.js';
import { ApiGate, type GateTicket } from '../../src/pipeline/api-gate.js';
import { waitFor } from '../helpers/docmill-cli.js';
import { errorReply, okReply, startRecordingServer, type RecordedRequest, type RecordingServer, type Reply } from '../helpers/recording-server.js';
import { makeTempDir, rejectionOf, removeTempDir, writeRandomFile } from '../helpers/temp-files.js';

/** A server that holds every request until the test answers it. */
interface HeldServer {
  server: RecordingServer;
  /** Resolves once `count` requests have arrived (whole bodies). */
  arrived(count: number): Promise<RecordedRequest[]>;
  /** Answers the request that arrived `index`-th (0-based). */
  answer(index: number, reply: Reply): void;
}

async function startHeldServer(): Promise<HeldServer> {
  const answers: ((reply: Reply) => void)[] = [];
  const requests: RecordedRequest[] = [];
  const watchers: { count: number; resolve: (requests: RecordedRequest[]) => void }[] = [];
  const server = await startRecordingServer((request) => {
    requests.push(request);
    for (const watcher of watchers.filter((candidate) => requests.length >= candidate.count)) {
      watchers.splice(watchers.indexOf(watcher), 1);
      watcher.resolve([...requests]);
    }
    return new Promise<Reply>((resolve) => answers.push(resolve));
  });
  return {
    server,
    arrived: (count) =>
      requests.length >= count ? Promise.resolve([...requests]) : new Promise((resolve) => watchers.push({ count, resolve })),
    answer: (index, reply) => {
      const answer = answers[index];
      if (!answer) throw new Error(`no request ${index} to answer`);
      answer(reply);
    },
  };
}

/** A ParseCall that takes a gate slot before each attempt and reports every outcome, as the pipeline's does. */
function throughGate(gate: ApiGate, outcomes: AttemptOutcome[]): ParseCall {
  let ticket: GateTicket | undefined;
  return {
    shouldRetry: () => false,
    beforeAttempt: async (signal) => {
      ticket = await gate.acquire(signal);
    },
    afterAttempt: (outcome) => {
      outcomes.push(outcome);
      if (ticket) gate.released(ticket);
      ticket = undefined;
    },
  };
}

let dir: string;
let held: HeldServer;
let api: RemoteParseApi;

beforeEach(async () => {
  dir = await makeTempDir();
  held = await startHeldServer();
});

afterEach(async () => {
  await api?.close();
  await held.server.close();
  await removeTempDir(dir);
});

async function files(count: number): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 0; i < count; i++) paths.push((await writeRandomFile(dir, `doc-${i}.pdf`, 2048)).path);
  return paths;
}

describe('a refused key', () => {
  it.each([
    [401, UnauthorizedError],
    [403, ForbiddenError],
  ] as const)('after the first %i, requests waiting for a gate slot are not sent', async (status, ErrorClass) => {
    api = new RemoteParseApi({ apiUrl: held.server.url, apiKey: 'wrong-key' });
    const gate = new ApiGate({ max: 2, initial: 2 });
    const outcomes: AttemptOutcome[] = [];
    // Ten files at once through a gate of two: two are sent, eight wait for a slot.
    const parses = (await files(10)).map((path) => rejectionOf(api.parseFile(path, undefined, throughGate(gate, outcomes))));
    await held.arrived(2);
    await waitFor('eight parses waiting for a slot', () => gate.snapshot().waiting === 8 || undefined, { timeoutMs: 5000, intervalMs: 5 });
    expect(gate.snapshot()).toEqual({ limit: 2, inFlight: 2, waiting: 8 });

    // The first refusal frees a slot: the job that takes it must not send.
    held.answer(0, errorReply(status));
    held.answer(1, errorReply(status));
    const errors = await Promise.all(parses);

    expect(held.server.arrivals).toBe(2);
    expect(held.server.requests).toHaveLength(2);
    for (const error of errors) {
      expect(error).toBeInstanceOf(ErrorClass);
      expect((error as ParseApiError).status).toBe(status);
    }
    expect(errors.filter((error) => (error as ParseApiError).sentNothing)).toHaveLength(8);
    // Every slot taken was given back: each attempt, sent or not, was reported.
    expect(outcomes).toHaveLength(10);
    expect(gate.snapshot()).toMatchObject({ inFlight: 0, waiting: 0 });
  });

  it('a retry the client was waiting to send is not sent once another request has been refused', async () => {
    // The client's own loop: a 503 for one file, and while it waits out the backoff, a 401 for another.
    let wake: (() => void) | undefined;
    let started: (() => void) | undefined;
    const backoffStarted = new Promise<void>((resolve) => (started = resolve));
    const clock: Clock = {
      now: () => Date.now(),
      sleep: () => {
        started?.();
        return new Promise<void>((resolve) => (wake = resolve));
      },
    };
    api = new RemoteParseApi({ apiUrl: held.server.url, apiKey: 'wrong-key', clock });
    const [first, second] = (await files(2)) as [string, string];
    const retrying = rejectionOf(api.parseFile(first, undefined));
    await held.arrived(1);
    held.answer(0, errorReply(503));
    await backoffStarted;
    const refused = rejectionOf(api.parseFile(second, undefined));
    await held.arrived(2);
    held.answer(1, errorReply(401));
    expect(await refused).toBeInstanceOf(UnauthorizedError);
    wake?.();

    const error = await retrying;
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as ParseApiError).sentNothing).toBe(true);
    expect(held.server.arrivals).toBe(2);
  });

  it('a later file is refused at once, with the API\'s message, and nothing is sent', async () => {
    api = new RemoteParseApi({ apiUrl: held.server.url, apiKey: 'wrong-key' });
    const [first, second] = (await files(2)) as [string, string];
    const refused = rejectionOf(api.parseFile(first, undefined));
    await held.arrived(1);
    held.answer(0, errorReply(401, { error: 'Unauthorized: Invalid token' }));
    const original = (await refused) as ParseApiError;
    expect(original.sentNothing).toBe(false);

    const again = (await rejectionOf(api.parseFile(second, undefined))) as ParseApiError;
    expect(again).toBeInstanceOf(UnauthorizedError);
    expect(again.sentNothing).toBe(true);
    expect(again.code).toBe('PARSE_UNAUTHORIZED');
    expect(again.apiMessage).toBe('Unauthorized: Invalid token');
    expect(held.server.arrivals).toBe(1);
  });

  it('other refusals do not stop sending: after a 400 or a 402 the next file is sent', async () => {
    api = new RemoteParseApi({ apiUrl: held.server.url, apiKey: 'key' });
    const paths = await files(3);
    const replies = [errorReply(400), errorReply(402), okReply()];
    for (const [index, path] of paths.entries()) {
      const parsed = api.parseFile(path, undefined).catch((error: unknown) => error);
      await held.arrived(index + 1);
      held.answer(index, replies[index] as Reply);
      await parsed;
    }
    expect(held.server.arrivals).toBe(3);
  });
});
