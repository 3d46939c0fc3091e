/**
 * The credit budget of a queue (`--max-credits`), shared by every worker on it: the limit, the credits used so far
 * (each finished document's `creditsUsed`, added atomically), and the estimates reserved by documents being sent.
 * A document reserves its estimate before it is sent, in one Lua script that checks used + reserved + estimate
 * against the limit, so two workers can never both pass the budget; the reservation is settled with the real
 * credits when the answer comes, or released when none does. A reservation also expires on its own (a worker that
 * died mid-request), after the request's longest possible life.
 *
 * Each reservation carries a token, and a settle or release that names one drops the reservation only while it still
 * carries it: a release retried late (after Redis failed it) can never drop the reservation a later start of the same
 * job has made, since re-entering a reservation gives it a new token.
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from './redis-connection.js';
import { docmillKey } from './queue-names.js';

export interface BudgetState {
  /** The budget, or undefined when the queue has none. */
  limit: number | undefined;
  /** Credits used by finished documents since the budget was set (or, for `run`, since its batch began). */
  used: number;
  /** Credits reserved by documents being sent now. */
  reserved: number;
}

/** Credits held for one document while it is sent. */
export interface HeldReservation {
  /** Names this reservation in `settle` and `release` ('' when the queue has no budget and nothing was reserved). */
  token: string;
  /** When it expires by itself (ms since the epoch; 0 when nothing was reserved). */
  expiresAt: number;
}

export type Reservation = ({ ok: true } & HeldReservation & { state: BudgetState }) | { ok: false; state: BudgetState };

/** Lua: a reservation's value "credits:expiresAtMs:token" (the token absent in values written before tokens). */
const PARSE_RESERVATION = `
local function parseReservation(value)
  local first = string.find(value, ':', 1, true)
  local second = string.find(value, ':', first + 1, true)
  local credits = tonumber(string.sub(value, 1, first - 1))
  local expires = tonumber(string.sub(value, first + 1, (second or 0) - 1))
  local base = value
  local token = ''
  if second then
    base = string.sub(value, 1, second - 1)
    token = string.sub(value, second + 1)
  end
  return credits, expires, token, base
end`;

/**
 * KEYS: budget hash (limit, used), reservations hash (field: owner; value: "credits:expiresAtMs:token").
 * ARGV: owner, estimate, now (ms), expiresAt (ms), token. Returns {ok, limit or -1, used, reserved, token, expiresAt}:
 * a reservation the owner already holds is re-entered under the new token, keeping its credits and expiry.
 */
const RESERVE = `${PARSE_RESERVATION}
local limit = redis.call('hget', KEYS[1], 'limit')
local used = tonumber(redis.call('hget', KEYS[1], 'used') or '0')
local now = tonumber(ARGV[3])
local reserved = 0
local held = false
local entries = redis.call('hgetall', KEYS[2])
for i = 1, #entries, 2 do
  local credits, expires = parseReservation(entries[i + 1])
  if expires < now then
    redis.call('hdel', KEYS[2], entries[i])
  else
    reserved = reserved + credits
    if entries[i] == ARGV[1] then held = entries[i + 1] end
  end
end
if not limit then return {1, '-1', tostring(used), tostring(reserved), '', '0'} end
if held then
  local _, _, _, base = parseReservation(held)
  redis.call('hset', KEYS[2], ARGV[1], base .. ':' .. ARGV[5])
  return {1, limit, tostring(used), tostring(reserved), ARGV[5], string.sub(base, string.find(base, ':', 1, true) + 1)}
end
if used + reserved + tonumber(ARGV[2]) > tonumber(limit) then
  return {0, limit, tostring(used), tostring(reserved), '', '0'}
end
redis.call('hset', KEYS[2], ARGV[1], ARGV[2] .. ':' .. ARGV[4] .. ':' .. ARGV[5])
return {1, limit, tostring(used), tostring(reserved + tonumber(ARGV[2])), ARGV[5], ARGV[4]}`;

/** Lua: drops the owner's reservation when it carries the token (any token when none is given); 1 when dropped. */
const DROP_RESERVATION = `
local function dropReservation(owner, token)
  local value = redis.call('hget', KEYS[2], owner)
  if not value then return 0 end
  if token ~= '' then
    local _, _, held = parseReservation(value)
    if held ~= token then return 0 end
  end
  return redis.call('hdel', KEYS[2], owner)
end`;

/** KEYS: budget hash, reservations hash. ARGV: owner, credits used, token ('' for any). */
const SETTLE = `${PARSE_RESERVATION}${DROP_RESERVATION}
dropReservation(ARGV[1], ARGV[3])
if tonumber(ARGV[2]) > 0 then redis.call('hincrbyfloat', KEYS[1], 'used', ARGV[2]) end
return 1`;

/** KEYS: budget hash, reservations hash. ARGV: owner, token ('' for any). */
const RELEASE = `${PARSE_RESERVATION}${DROP_RESERVATION}
return dropReservation(ARGV[1], ARGV[2])`;

/** KEYS: budget hash. ARGV: limit. A first budget starts its count at 0. */
const SET_LIMIT = `
local had = redis.call('hexists', KEYS[1], 'limit')
redis.call('hset', KEYS[1], 'limit', ARGV[1])
if had == 0 then redis.call('hset', KEYS[1], 'used', '0') end
return had`;

export class CreditBudget {
  /** The hash holding the limit (field `limit`) and the credits used (`used`). */
  readonly key: string;
  readonly #reservationsKey: string;

  /** `limitSet`: told when this process sets or removes the limit. */
  constructor(
    private readonly redis: RedisClient,
    queueName: string,
    private readonly limitSet: () => void = () => undefined,
  ) {
    this.key = docmillKey(queueName, 'budget');
    this.#reservationsKey = docmillKey(queueName, 'budget', 'reserved');
  }

  /**
   * Sets the budget (`undefined` removes it). A queue that had none starts counting from 0; one that had a budget
   * keeps its count, so raising the budget (`docmill resume --max-credits`) continues where the old one stopped.
   */
  async setLimit(limit: number | undefined): Promise<void> {
    try {
      if (limit === undefined) await this.redis.hdel(this.key, 'limit');
      else await this.redis.eval(SET_LIMIT, 1, this.key, String(limit));
    } finally {
      this.limitSet();
    }
  }

  /** Starts counting afresh (a new batch): credits used go back to 0. */
  async resetUsed(): Promise<void> {
    await this.redis.hset(this.key, 'used', '0');
  }

  /** Whether its Redis connection was closed for good (quit or disconnected): nothing sent on it can succeed again. */
  get closed(): boolean {
    return this.redis.status === 'end';
  }

  async state(now = Date.now()): Promise<BudgetState> {
    const [budget, reservations] = await Promise.all([this.redis.hgetall(this.key), this.redis.hgetall(this.#reservationsKey)]);
    let reserved = 0;
    for (const value of Object.values(reservations)) {
      const [credits, expires] = value.split(':').map(Number);
      if ((expires ?? 0) >= now) reserved += credits ?? 0;
    }
    return { limit: budget.limit === undefined ? undefined : Number(budget.limit), used: Number(budget.used ?? 0), reserved };
  }

  /**
   * Reserves `estimate` credits for `owner` (a job id) unless the credits used, those reserved and this estimate
   * would pass the limit. Granted without a check when the owner already holds a reservation (a job processed again
   * after waiting for its page ranges, or after a deferral, passed the check before), and always without a budget.
   */
  async reserve(owner: string, estimate: number, ttlMs: number, now = Date.now()): Promise<Reservation> {
    const token = randomUUID();
    const reply = (await this.redis.eval(
      RESERVE,
      2,
      this.key,
      this.#reservationsKey,
      owner,
      String(estimate),
      String(now),
      String(now + ttlMs),
      token,
    )) as [number, string, string, string, string, string];
    const limit = Number(reply[1]);
    const state: BudgetState = { limit: limit < 0 ? undefined : limit, used: Number(reply[2]), reserved: Number(reply[3]) };
    if (reply[0] !== 1) return { ok: false, state };
    return { ok: true, state, token: reply[4], expiresAt: Number(reply[5]) };
  }

  /** Whether any of these owners (a job, the document job of a page range) holds a reservation now. */
  async holds(...owners: (string | undefined)[]): Promise<boolean> {
    const ids = owners.filter((owner): owner is string => owner !== undefined);
    if (ids.length === 0) return false;
    const values = await this.redis.hmget(this.#reservationsKey, ...ids);
    const now = Date.now();
    return values.some((value) => value !== null && Number(value.split(':')[1]) >= now);
  }

  /**
   * The answer came: adds the credits it used and drops the reservation, in one step. With a token, only the
   * reservation that still carries it is dropped (the credits are counted either way).
   */
  async settle(owner: string, creditsUsed: number, token = ''): Promise<void> {
    await this.redis.eval(SETTLE, 2, this.key, this.#reservationsKey, owner, String(creditsUsed), token);
  }

  /**
   * No answer (an error, a deferral): the reservation is dropped, nothing is counted. With a token, only while the
   * reservation still carries it. Resolves true when a reservation was dropped.
   */
  async release(owner: string, token = ''): Promise<boolean> {
    return (await this.redis.eval(RELEASE, 2, this.key, this.#reservationsKey, owner, token)) === 1;
  }
}
