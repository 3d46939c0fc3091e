/**
 * The API gate of every worker process on one queue, kept in Redis (see the header of ./api-gate.ts for why one
 * shared in-flight count rather than a limit divided among workers).
 *
 * - `{docmill}:<queue>:gate` (hash): the learned limit and the policy's state (slow start, successes since the last
 *   decrease, the probe in progress and its backoff, the decrease epoch). Created by the first worker at
 *   `min(max, 2)`; it outlives a run by `STATE_TTL_MS` of disuse, so the next run on the queue starts from what the
 *   last one learned.
 * - `{docmill}:<queue>:gate:leases` (sorted set): one member per request out, scored by its expiry on Redis's
 *   clock. A live worker renews its leases; a dead worker's expire after `leaseMs` and their slots come back.
 * - `{docmill}:<queue>:gate:freed` (channel): told whenever a slot frees or the limit grows, so workers waiting for
 *   a slot try again at once instead of polling.
 * - `{docmill}:<queue>:gate:waiting` (sorted set): the workers refused a slot in the last moments; while another
 *   worker waits, a freed slot is announced to all rather than handed to the next request of the worker that freed
 *   it.
 *
 * - `{docmill}:<queue>:gate:sent` (sorted set): the requests sent within the last minute (or two rate windows),
 *   scored by when they went, refused ones taken out: what a rate 429 counts the budget from (./rate-pace.ts).
 *   It is also what paces: a request goes when fewer than the budget went within the window (and its margin).
 *   The rest of the pace (window, budget, the hold after a 429, the probe) lives in the state hash.
 *
 * Taking a slot and reporting an outcome are each one Lua script, so no two workers see the same free slot and a
 * concurrency 429 lowers the limit to what is in flight across the whole fleet at that moment: exactly what the API
 * accepted. The policy is ApiGate's, step for step, and so is the pace at a rate limit: taking a slot also takes a
 * turn of the fleet's budget (a worker refused its turn retries when the next comes, not at the next poll), and a rate
 * 429's report learns the window and budget, all in the same two scripts, so pacing adds no round trip.
 */
import { randomUUID } from 'node:crypto';
import { duplicateConnection, type RedisClient } from '../queue/redis-connection.js';
import { QUEUE_PREFIX } from '../queue/queue-names.js';
import type { RateLimitHint } from '../backend/errors.js';
import { answeredLate, type GateSnapshot, type GateTicket, type ParseGate } from './api-gate.js';
import { EDGE_WINDOWS, PACE_MARGIN, requestsPerSecond, SEND_LOG_MS, windowFromHint } from './rate-pace.js';

export interface SharedGateOptions {
  /** Commands go over a duplicate of this connection; a second duplicate listens for freed slots. */
  connection: RedisClient;
  /** The queue whose workers share the gate. */
  queue: string;
  /** The ceiling (`--concurrency`): this process never has more out, and the shared limit never grows above it. */
  max: number;
  /** Where a new shared limit starts. @default min(max, 2), then slow start */
  initial?: number;
  /** Multiplicative decrease on a per-minute 429. @default 0.5 */
  decrease?: number;
  /** Successes per unit of limit before probing one higher. @default 16 */
  probeAfter?: number;
  /** How long a lease lives without renewal (a dead worker's slots come back after this). @default 15000 */
  leaseMs?: number;
  /** How often a blocked worker tries again without being told (missed messages, expired leases). @default 250 */
  retryMs?: number;
}

/** How long the shared state outlives its last use. */
const STATE_TTL_MS = 3_600_000;

/** The pace's Lua helpers, shared by both scripts (see ./rate-pace.ts for the policy). */
const PACE_LUA = `
local function num(x) return tonumber(x) or 0 end
local function turnDue(sent, nowF, w, n, hold, margin)
  if w <= 0 or n <= 0 then return hold end
  local span = w * (1 + margin)
  local from = '(' .. string.format('%.3f', nowF - span)
  local recent = redis.call('ZCOUNT', sent, from, '+inf')
  if recent < n then return hold end
  local leaving = redis.call('ZRANGEBYSCORE', sent, from, '+inf', 'WITHSCORES', 'LIMIT', recent - n, 1)
  return math.max(hold, tonumber(leaving[2]) + span)
end
local function fmt(x) return string.format('%.3f', x) end
local function logSend(key, at, id, windowMs)
  redis.call('ZADD', key, at, id)
  local keep = math.max(${SEND_LOG_MS}, 2 * windowMs)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', at - keep)
  redis.call('PEXPIRE', key, math.ceil(keep))
end
`;

/**
 * ARGV: lease, lease ms, initial limit, state TTL, worker id, waiting TTL, pace margin. Answers granted (0/1), the
 * limit, the fleet's in-flight count, the epoch, the ms until the pace's next turn (the turn refused, or the one
 * after the turn taken), and whether the fleet paces (0/1).
 */
const ACQUIRE = `${PACE_LUA}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local nowF = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'limit', ARGV[3], 'slowStart', 1, 'successes', 0, 'probeFrom', 0, 'probeBackoff', 1, 'epoch', 0)
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local limit = tonumber(redis.call('HGET', KEYS[1], 'limit'))
local epoch = tonumber(redis.call('HGET', KEYS[1], 'epoch'))
local inFlight = redis.call('ZCARD', KEYS[2])
local p = redis.call('HMGET', KEYS[1], 'pW', 'pN', 'pHold')
local pW, pN, pHold = num(p[1]), num(p[2]), num(p[3])
local margin = tonumber(ARGV[7])
local paced = (pW > 0 and pN > 0) and 1 or 0
local turnIn = 0
if inFlight < limit and paced == 1 then
  local due = turnDue(KEYS[4], nowF, pW, pN, pHold, margin)
  if nowF < due then turnIn = math.ceil(due - nowF) end
end
if inFlight >= limit or turnIn > 0 then
  redis.call('ZADD', KEYS[3], now + tonumber(ARGV[6]), ARGV[5])
  redis.call('PEXPIRE', KEYS[3], ARGV[4])
  return {0, limit, inFlight, epoch, turnIn, paced, pN, pW}
end
logSend(KEYS[4], nowF, ARGV[1], pW)
local nextTurnIn = 0
if paced == 1 then nextTurnIn = math.max(0, math.ceil(turnDue(KEYS[4], nowF, pW, pN, pHold, margin) - nowF)) end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return {1, limit, inFlight + 1, epoch, nextTurnIn, paced, pN, pW}
`;

/**
 * ARGV: lease, outcome, max, ticket epoch, in flight at start, may probe (0/1), probeAfter, decrease, the lease to
 * hand the freed slot to (this worker's next waiter, or '') with its time to live, this worker's id, and '1' when
 * the worker kept the lease for its next request. Handing over and keeping save the round trips between an answer
 * and the next request; a worker must not keep the fleet's slots to itself, so it hands over only while no other
 * worker waits (they mark themselves in the `waiting` set when refused), and keeps no more than its share of the
 * limit among the waiting workers.
 * Then, for the pace: the send id of the kept lease's next request (or ''), the send id of the request settled,
 * what a rate 429 said (wait, reset, window ms, budget; '' when not said), and the pace margin.
 */
const SETTLE = `${PACE_LUA}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local nowF = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local freed = 0
if ARGV[12] == '1' then
  redis.call('ZADD', KEYS[2], 'XX', now + tonumber(ARGV[10]), ARGV[1])
else
  freed = redis.call('ZREM', KEYS[2], ARGV[1])
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local inFlight = redis.call('ZCARD', KEYS[2])
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1, inFlight, -1} end
local s = redis.call('HMGET', KEYS[1], 'limit', 'slowStart', 'successes', 'probeFrom', 'probeBackoff', 'epoch')
local limit, slowStart, successes = tonumber(s[1]), tonumber(s[2]), tonumber(s[3])
local probeFrom, probeBackoff, epoch = tonumber(s[4]), tonumber(s[5]), tonumber(s[6])
local p = redis.call('HMGET', KEYS[1], 'pW', 'pN', 'pTold', 'pHold', 'pSucc', 'pProbeFrom', 'pProbeAt', 'pBackoff', 'pCounted', 'pCountedSent')
local pW, pN, pTold, pHold, pSucc = num(p[1]), num(p[2]), num(p[3]), num(p[4]), num(p[5])
local pProbeFrom, pProbeAt, pBackoff, pCounted, pCountedSent = num(p[6]), num(p[7]), tonumber(p[8]) or 1, num(p[9]), num(p[10])
local margin = tonumber(ARGV[19])
local before = limit
local outcome, max = ARGV[2], tonumber(ARGV[3])
local ticketEpoch, atStart = tonumber(ARGV[4]), tonumber(ARGV[5])
local function lower(target)
  limit = math.max(1, math.min(limit, target))
  successes = 0
  epoch = epoch + 1
end
if outcome == 'ok' then
  if probeFrom > 0 and atStart > probeFrom then
    probeFrom = 0
    probeBackoff = 1
  end
  if pW > 0 and pTold == 0 then
    pSucc = pSucc + 1
    if pProbeFrom > 0 and pSucc >= pN and redis.call('ZCOUNT', KEYS[5], '(' .. fmt(nowF - pW * (1 + margin)), '+inf') >= pN then
      pProbeFrom = 0
      pBackoff = 1 / tonumber(ARGV[7])
      pSucc = 0
    end
    if pProbeFrom == 0 and ARGV[6] == '1' and pSucc >= tonumber(ARGV[7]) * pN * pBackoff then
      pProbeFrom = pN
      pProbeAt = nowF
      pN = pN + 1
      pSucc = 0
    end
  end
  if slowStart == 1 then
    if limit < max then limit = limit + 1 end
  else
    successes = successes + 1
    if limit < max and successes >= tonumber(ARGV[7]) * limit * probeBackoff and ARGV[6] == '1' then
      probeFrom = limit
      limit = limit + 1
      successes = 0
    end
  end
elseif outcome == 'late-concurrency' then
  slowStart = 0
elseif outcome == 'concurrency' then
  slowStart = 0
  if probeFrom > 0 then
    probeBackoff = math.min(probeBackoff * 2, 64)
    probeFrom = 0
  end
  lower(math.max(1, inFlight))
elseif outcome == 'rate' then
  slowStart = 0
  local sentAt = tonumber(redis.call('ZSCORE', KEYS[5], ARGV[14]))
  redis.call('ZREM', KEYS[5], ARGV[14])
  local hintWait, hintReset, hintW, hintN = num(ARGV[15]), num(ARGV[16]), num(ARGV[17]), num(ARGV[18])
  local told = hintW
  if told <= 0 then told = math.ceil(math.max(hintWait, hintReset) / 1000) * 1000 end
  if told > 0 then
    local grew = told > pW
    if hintW > 0 then pW = hintW else pW = math.max(pW, told) end
    local refusedAt = sentAt or nowF
    local from, to = '(' .. fmt(refusedAt - pW * (1 + margin)), '(' .. fmt(refusedAt)
    if hintN > 0 then
      pN = hintN
      pTold = 1
    elseif pProbeFrom > 0 and sentAt ~= nil and sentAt >= pProbeAt then
      pN = pProbeFrom
      pBackoff = math.min(math.max(1, pBackoff * 2), 64)
    elseif pN == 0 or grew or nowF >= pCounted + pW then
      local count = math.max(1, redis.call('ZCOUNT', KEYS[5], from, to))
      if pN == 0 or grew then pN = count
      elseif not (pSucc >= ${EDGE_WINDOWS} * pN and count >= pN - 1) then pN = math.min(pN, count) end
      pCounted = nowF
      if pN == count then pCountedSent = refusedAt else pCountedSent = 0 end
    elseif sentAt ~= nil and sentAt < pCountedSent and sentAt > pCountedSent - pW * (1 + margin) then
      pN = math.max(1, pN - 1)
    end
    local oldest = redis.call('ZRANGEBYSCORE', KEYS[5], from, to, 'WITHSCORES', 'LIMIT', 0, 1)
    if oldest[2] then pHold = math.max(pHold, tonumber(oldest[2]) + pW * (1 + margin)) end
    pProbeFrom = 0
    pSucc = 0
  elseif ticketEpoch == epoch then
    lower(math.floor(limit * tonumber(ARGV[8])))
  end
elseif outcome == 'queued' then
  slowStart = 0
  successes = 0
  if ticketEpoch == epoch and limit > 1 and atStart <= limit then lower(math.max(1, atStart - 1)) end
end
if ARGV[12] == '1' and ARGV[13] ~= '' then logSend(KEYS[5], nowF, ARGV[13], pW) end
local paced = (pW > 0 and pN > 0) and 1 or 0
local granted = 0
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now)
local othersWaiting = redis.call('ZCARD', KEYS[4])
if redis.call('ZSCORE', KEYS[4], ARGV[11]) then othersWaiting = othersWaiting - 1 end
if ARGV[9] ~= '' and inFlight < limit and othersWaiting == 0 and (paced == 0 or nowF >= turnDue(KEYS[5], nowF, pW, pN, pHold, margin)) then
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[10]), ARGV[9])
  inFlight = inFlight + 1
  granted = 1
  logSend(KEYS[5], nowF, ARGV[9], pW)
end
redis.call('HSET', KEYS[1], 'limit', limit, 'slowStart', slowStart, 'successes', successes, 'probeFrom', probeFrom, 'probeBackoff', probeBackoff, 'epoch', epoch,
  'pW', pW, 'pN', pN, 'pTold', pTold, 'pHold', fmt(pHold), 'pSucc', pSucc, 'pProbeFrom', pProbeFrom, 'pProbeAt', fmt(pProbeAt), 'pBackoff', pBackoff, 'pCounted', fmt(pCounted), 'pCountedSent', fmt(pCountedSent))
if inFlight < limit and (freed == 1 or limit > before) then redis.call('PUBLISH', KEYS[3], limit) end
return {limit, inFlight, epoch, granted, othersWaiting, paced, pN, pW}
`;

const RENEW = `
local t = redis.call('TIME')
local expiry = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], 'XX', expiry, ARGV[i]) end
return #ARGV - 1
`;

type Outcome = 'ok' | 'concurrency' | 'late-concurrency' | 'rate' | 'queued' | 'released';

/** A number for a script argument, '' when absent. */
function arg(value: number | undefined): string | number {
  return value === undefined ? '' : Math.round(value);
}

interface Waiter {
  resolve: (ticket: GateTicket) => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal | undefined;
  onAbort?: () => void;
}

interface GateCommands {
  gateAcquire(state: string, leases: string, waiting: string, sent: string, ...args: (string | number)[]): Promise<number[]>;
  gateSettle(state: string, leases: string, channel: string, waiting: string, sent: string, ...args: (string | number)[]): Promise<number[]>;
  gateRenew(leases: string, leaseMs: number, ...members: string[]): Promise<number>;
}

export class SharedApiGate implements ParseGate {
  readonly #redis: RedisClient & GateCommands;
  readonly #subscriber: RedisClient;
  readonly #stateKey: string;
  readonly #leasesKey: string;
  readonly #channel: string;
  readonly #waitingKey: string;
  readonly #sentKey: string;
  readonly #max: number;
  readonly #initial: number;
  readonly #decrease: number;
  readonly #probeAfter: number;
  readonly #leaseMs: number;
  readonly #retryMs: number;
  readonly #owner = randomUUID();
  #nextLease = 0;
  /** The shared limit as last seen: what `limit` reports between calls. */
  #limit: number;
  /** Requests this process has out, by ticket: the lease to give back. */
  readonly #leases = new Map<GateTicket, string>();
  /** The id each request out was logged under in the `sent` set (its lease's, unless the lease was kept). */
  readonly #sendIds = new Map<GateTicket, string>();
  /** Whether the fleet paces at a learned rate, as of the last answer from Redis. */
  #pacing = false;
  /** The fleet's pace as Redis last told: N requests per W ms (0s while not pacing). */
  #pace = { budget: 0, windowMs: 0 };
  readonly #waiters: Waiter[] = [];
  #pumping = false;
  /** Slots asked for by outcome reports on behalf of waiters (see SETTLE), not answered yet. */
  #handovers = 0;
  /** As of the last outcome report: other workers waiting, the fleet's requests out, the decrease epoch. */
  #othersWaiting = 1;
  #fleetInFlight = 0;
  #epoch = 0;
  #pumpAgain = false;
  #retryTimer: NodeJS.Timeout | undefined;
  #retryDueAt = 0;
  /** When this worker's next turn of the fleet's pace comes, as Redis last told (0: none ahead). */
  #turnDueAt = 0;
  readonly #renewTimer: NodeJS.Timeout;
  #backlog: number | undefined;
  #latencyMs: number | undefined;
  #closed = false;
  readonly #ready: Promise<void>;

  constructor(options: SharedGateOptions) {
    if (!Number.isInteger(options.max) || options.max < 1) throw new RangeError('SharedApiGate max must be a positive integer');
    this.#max = options.max;
    this.#initial = Math.min(options.initial ?? 2, options.max);
    this.#limit = this.#initial;
    this.#decrease = options.decrease ?? 0.5;
    this.#probeAfter = options.probeAfter ?? 16;
    this.#leaseMs = options.leaseMs ?? 15_000;
    this.#retryMs = options.retryMs ?? 250;
    const base = `${QUEUE_PREFIX}:${options.queue}:gate`;
    this.#stateKey = base;
    this.#leasesKey = `${base}:leases`;
    this.#channel = `${base}:freed`;
    this.#waitingKey = `${base}:waiting`;
    this.#sentKey = `${base}:sent`;
    const redis = duplicateConnection(options.connection, { lazyConnect: false });
    redis.defineCommand('gateAcquire', { numberOfKeys: 4, lua: ACQUIRE });
    redis.defineCommand('gateSettle', { numberOfKeys: 5, lua: SETTLE });
    redis.defineCommand('gateRenew', { numberOfKeys: 1, lua: RENEW });
    this.#redis = redis as RedisClient & GateCommands;
    this.#redis.on('error', () => undefined);
    this.#subscriber = duplicateConnection(options.connection);
    this.#subscriber.on('error', () => undefined);
    this.#subscriber.on('message', () => this.#pumpUnlessTurnAhead());
    this.#ready = this.#subscriber.subscribe(this.#channel).then(
      () => undefined,
      () => undefined,
    );
    this.#renewTimer = setInterval(() => this.#renew(), Math.max(100, Math.floor(this.#leaseMs / 3)));
    this.#renewTimer.unref();
  }

  get limit(): number {
    return this.#limit;
  }

  get pacing(): boolean {
    return this.#pacing;
  }

  snapshot(): GateSnapshot {
    return { limit: this.#limit, inFlight: this.#leases.size, waiting: this.#waiters.length };
  }

  /** Waits for a slot of the shared limit; returns a ticket to pass to the outcome call. */
  async acquire(signal?: AbortSignal): Promise<GateTicket> {
    signal?.throwIfAborted();
    if (this.#closed) throw new Error('the API gate is closed');
    await this.#ready;
    signal?.throwIfAborted();
    return new Promise<GateTicket>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const index = this.#waiters.indexOf(waiter);
          if (index >= 0) this.#waiters.splice(index, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.#waiters.push(waiter);
      this.#pump();
    });
  }

  setBacklog(documents: number | undefined): void {
    this.#backlog = documents;
  }

  succeeded(ticket: GateTicket): void {
    const took = Date.now() - ticket.startedAt;
    if (!this.#leases.has(ticket)) return;
    this.#latencyMs = this.#latencyMs === undefined ? took : this.#latencyMs * 0.9 + took * 0.1;
    this.#settle(ticket, 'ok');
  }

  concurrencyLimited(ticket: GateTicket): void {
    // A 429 as late as a parse was not an admission refusal: it only ends slow start (see ApiGate).
    this.#settle(ticket, answeredLate(Date.now() - ticket.startedAt, this.#latencyMs) ? 'late-concurrency' : 'concurrency');
  }

  rateLimited(ticket: GateTicket, hint: RateLimitHint = {}): void {
    this.#settle(ticket, 'rate', hint);
    // The script learns the pace from this very answer when it tells a window: the fleet paces from now on, and a
    // caller asking before Redis has answered must not take the 429 for one no pace holds back (the queue would be
    // paused for the whole wait, the budget idle: measured, half a window lost at the first 429).
    if (windowFromHint(hint) !== undefined) this.#pacing = true;
  }

  queuedByApi(ticket: GateTicket): void {
    this.#settle(ticket, 'queued');
  }

  released(ticket: GateTicket): void {
    this.#settle(ticket, 'released');
  }

  /** Gives back this process's leases, rejects its waiters and closes both connections. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#renewTimer);
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    for (const waiter of this.#waiters.splice(0)) {
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.reject(new Error('the API gate is closed'));
    }
    const leases = [...this.#leases.values()];
    this.#leases.clear();
    if (leases.length > 0) {
      const giveBack = this.#redis.zrem(this.#leasesKey, ...leases).then(() => this.#redis.publish(this.#channel, 'closed'));
      await withinMs(giveBack.catch(() => undefined), 2000);
    }
    this.#subscriber.disconnect();
    this.#redis.disconnect();
  }

  #settle(ticket: GateTicket, outcome: Outcome, hint: RateLimitHint = {}): void {
    const lease = this.#leases.get(ticket);
    if (lease === undefined) return;
    this.#leases.delete(ticket);
    const sendId = this.#sendIds.get(ticket) ?? lease;
    this.#sendIds.delete(ticket);
    // An outcome that cannot lower the limit, a waiter here, the fleet not over the limit, and this worker holding
    // less than its share of the limit among the workers waiting: the slot goes to this worker's next request at
    // once, and the report follows. Slots beyond the share are announced to every worker. Not while pacing: a
    // request must wait its turn of the fleet's pace, which only Redis knows.
    const share = Math.ceil(this.#limit / (this.#othersWaiting + 1));
    const keep =
      (outcome === 'ok' || outcome === 'released') &&
      !this.#closed &&
      !this.#pacing &&
      this.#leases.size < share &&
      this.#fleetInFlight <= this.#limit &&
      this.#waiters.length > this.#handovers;
    const keptSendId = keep ? `${this.#owner}:${this.#nextLease++}` : '';
    if (keep) this.#grant(lease, { epoch: this.#epoch, inFlightAtStart: this.#fleetInFlight, startedAt: Date.now() }, keptSendId);
    const askForWaiter = !keep && !this.#closed && this.#waiters.length > this.#handovers && this.#leases.size + this.#handovers < this.#max;
    const handover = askForWaiter ? `${this.#owner}:${this.#nextLease++}` : '';
    if (handover) this.#handovers++;
    const args = [lease, outcome, this.#max, ticket.epoch, ticket.inFlightAtStart, this.#probeWorthwhile() ? 1 : 0, this.#probeAfter, this.#decrease, handover, this.#leaseMs, this.#owner, keep ? 1 : 0];
    const paceArgs = [keptSendId, sendId, arg(hint.waitMs), arg(hint.resetMs), arg(hint.windowMs), arg(hint.limit), PACE_MARGIN];
    this.#redis
      .gateSettle(this.#stateKey, this.#leasesKey, this.#channel, this.#waitingKey, this.#sentKey, ...args, ...paceArgs)
      .then(([limit, inFlight = 0, epoch = 0, granted = 0, othersWaiting = 1, paced = 0, budget = 0, windowMs = 0]) => {
        if (limit !== undefined && limit > 0) {
          this.#limit = limit;
          this.#fleetInFlight = inFlight;
          this.#epoch = epoch;
          this.#othersWaiting = othersWaiting;
          this.#pacing = paced === 1;
          this.#pace = { budget, windowMs };
        }
        if (granted === 1) this.#grant(handover, { epoch, inFlightAtStart: inFlight, startedAt: Date.now() });
      })
      .catch(() => undefined)
      .finally(() => {
        if (handover) this.#handovers--;
        this.#pumpUnlessTurnAhead();
      });
  }

  /**
   * A freed slot is news only when the pace is not what holds the waiters: while pacing with the next turn ahead,
   * asking before it would only be refused (one round trip per request per worker, for nothing).
   */
  #pumpUnlessTurnAhead(): void {
    if (this.#pacing && this.#retryTimer !== undefined && this.#turnDueAt > Date.now()) return;
    this.#pump();
  }

  /** Hands shared slots to this process's waiters, in order, until one is refused or none wait. */
  #pump(): void {
    if (this.#pumping) {
      this.#pumpAgain = true;
      return;
    }
    if (this.#closed || this.#waiters.length <= this.#handovers) return;
    this.#pumping = true;
    void this.#pumpLoop().finally(() => {
      this.#pumping = false;
      if (this.#pumpAgain) {
        this.#pumpAgain = false;
        this.#pump();
      }
    });
  }

  async #pumpLoop(): Promise<void> {
    // Waiters an outcome report is already asking a slot for are left to it.
    while (!this.#closed && this.#waiters.length > this.#handovers && this.#leases.size + this.#handovers < this.#max) {
      this.#pumpAgain = false;
      const lease = `${this.#owner}:${this.#nextLease++}`;
      let reply: number[];
      try {
        reply = await this.#redis.gateAcquire(
          this.#stateKey,
          this.#leasesKey,
          this.#waitingKey,
          this.#sentKey,
          lease,
          this.#leaseMs,
          this.#initial,
          STATE_TTL_MS,
          this.#owner,
          2 * this.#retryMs,
          PACE_MARGIN,
        );
      } catch {
        this.#retryLater();
        return;
      }
      const [granted = 0, limit = this.#limit, inFlight = 0, epoch = 0, turnInMs = 0, paced = 0, budget = 0, windowMs = 0] = reply;
      this.#limit = limit;
      this.#fleetInFlight = inFlight;
      this.#epoch = epoch;
      this.#pacing = paced === 1;
      this.#pace = { budget, windowMs };
      if (granted !== 1) {
        // Refused its turn of the pace: no slot will free to say so, so try again when the turn comes.
        if (turnInMs > 0) this.#waitTurn(turnInMs);
        else this.#retryLater();
        return;
      }
      this.#grant(lease, { epoch, inFlightAtStart: inFlight, startedAt: Date.now() });
      if (turnInMs > 0) {
        // Pacing: the next turn is not before then, and asking sooner would only be refused.
        this.#waitTurn(turnInMs);
        return;
      }
    }
  }

  /** Gives a slot Redis granted to the first waiter; back at once when none waits any more. */
  #grant(lease: string, ticket: GateTicket, sendId = lease): void {
    this.#leases.set(ticket, lease);
    this.#sendIds.set(ticket, sendId);
    const waiter = this.#waiters.shift();
    if (!waiter || this.#closed) {
      // The waiter gave up (aborted) while Redis answered: the slot goes straight back.
      this.#settle(ticket, 'released');
      return;
    }
    if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
    waiter.resolve(ticket);
  }

  #waitTurn(turnInMs: number): void {
    this.#turnDueAt = Date.now() + turnInMs;
    this.#retryLater(turnInMs);
  }

  /** A refused worker tries again when told a slot freed, or after `delayMs` (`retryMs`, or its pace's turn) at the latest. */
  #retryLater(delayMs = this.#retryMs): void {
    if (this.#closed) return;
    const dueAt = Date.now() + delayMs;
    if (this.#retryTimer) {
      if (this.#retryDueAt <= dueAt) return;
      clearTimeout(this.#retryTimer);
    }
    this.#retryDueAt = dueAt;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#pump();
    }, delayMs);
    this.#retryTimer.unref();
  }

  #renew(): void {
    const leases = [...this.#leases.values()];
    if (leases.length === 0) return;
    this.#redis.gateRenew(this.#leasesKey, this.#leaseMs, ...leases).catch(() => undefined);
  }

  /** As ApiGate: no probe when the work left would be done within about a second at the current rate. */
  #probeWorthwhile(): boolean {
    if (this.#backlog === undefined || this.#latencyMs === undefined) return true;
    return this.#backlog + this.#waiters.length >= requestsPerSecond(this.#limit, this.#latencyMs, this.#pace);
  }
}

function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([promise, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms).unref())]);
}
