/**
 * The credit ledger in Redis, shared by every instance (decisions §1, §11): the same exact rolling
 * window as the in-memory store (a charge expires exactly `windowSeconds` after it was made), with
 * check-and-charge as ONE Lua script, which Redis runs atomically — N concurrent requests with
 * credits for M < N admit exactly M, across any number of instances.
 *
 * Per API key, two keys in one hash slot (the `{…}` tag, so the script also runs on a cluster):
 *   …:charges  sorted set: member = charge id, score = when it was made (ms)
 *   …:costs    hash: charge id → credits still charged by it; "#used" = their sum; "#seq" = id counter
 * Every charge costs ≥ 1 credit, so a key holds at most `credits` charges (+ 2 bookkeeping fields);
 * both keys expire one window after the newest charge, when the ledger is empty anyway.
 *
 * Time: the script reads Redis' own clock (TIME). Instances on hosts whose clocks disagree then
 * still agree on when a charge expires: with each caller passing its own clock, an instance running
 * ahead would expire other instances' charges early (admitting more than the allowance) and the
 * RateLimit-Reset each instance reports would differ. A caller clock can still be injected (`now`)
 * as a test seam, to check the exact expiry edge without waiting a real window.
 *
 * Redis unreachable or failing → `UnavailableError` (503): fail closed, never unlimited.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { allowanceOf, type ChargeOutcome, type QuotaPolicy, type QuotaStore } from './quota.js';
import type { RedisConnection } from './redis.js';

export const QUOTA_KEY_PREFIX = 'netdiag:quota:';

/** Removed or walked per round, below Lua's unpack() limit (LUAI_MAXCSTACK = 8000). */
const PAGE = 500;

// KEYS[1] charges, KEYS[2] costs; ARGV: credits, window (ms), cost, caller time in ms or "" for Redis TIME.
// Returns { allowed (0|1), remaining, resetSeconds, retryAfterSeconds, chargeId or "" }.
const CHARGE_SCRIPT = `
if redis.replicate_commands then redis.replicate_commands() end
local charges, costs = KEYS[1], KEYS[2]
local credits, window, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local now = tonumber(ARGV[4])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- Drop every charge made a whole window ago or earlier (score <= now - window).
local used = tonumber(redis.call('HGET', costs, '#used')) or 0
local horizon = now - window
while true do
  local expired = redis.call('ZRANGEBYSCORE', charges, '-inf', horizon, 'LIMIT', 0, ${PAGE})
  if #expired == 0 then break end
  local amounts = redis.call('HMGET', costs, unpack(expired))
  for i = 1, #amounts do used = used - (tonumber(amounts[i]) or 0) end
  redis.call('HDEL', costs, unpack(expired))
  redis.call('ZREM', charges, unpack(expired))
  if #expired < ${PAGE} then break end
end

local function seconds_until_expiry(at)
  return math.max(1, math.ceil((at + window - now) / 1000))
end
local function reset_seconds()
  local oldest = redis.call('ZRANGE', charges, 0, 0, 'WITHSCORES')
  if #oldest == 0 then return 0 end
  return seconds_until_expiry(tonumber(oldest[2]))
end
local function save_used()
  if redis.call('ZCARD', charges) == 0 then redis.call('DEL', costs) else redis.call('HSET', costs, '#used', used) end
end

local left = credits - used
if cost > left then
  -- Refused: when will enough credits be free? Walk the charges oldest first.
  local needed, freed, offset = cost - left, 0, 0
  local retry = math.floor(window / 1000) -- more than the whole allowance never fits: say "a full window"
  local found = false
  while not found do
    local page = redis.call('ZRANGE', charges, offset, offset + ${PAGE} - 1, 'WITHSCORES')
    if #page == 0 then break end
    local ids = {}
    for i = 1, #page, 2 do ids[#ids + 1] = page[i] end
    local amounts = redis.call('HMGET', costs, unpack(ids))
    for i = 1, #ids do
      freed = freed + (tonumber(amounts[i]) or 0)
      if freed >= needed then
        retry = seconds_until_expiry(tonumber(page[2 * i]))
        found = true
        break
      end
    end
    offset = offset + ${PAGE}
  end
  save_used()
  return { 0, left, reset_seconds(), retry, '' }
end

local id = ''
if cost > 0 then
  id = string.format('%d-%d', now, redis.call('HINCRBY', costs, '#seq', 1))
  redis.call('ZADD', charges, now, id)
  redis.call('HSET', costs, id, cost)
  used = used + cost
  redis.call('HSET', costs, '#used', used)
  redis.call('PEXPIRE', charges, window)
  redis.call('PEXPIRE', costs, window)
else
  save_used()
end
return { 1, left - cost, reset_seconds(), 0, id }
`;

// KEYS[1] charges, KEYS[2] costs; ARGV: charge id, amount. Returns the credits given back.
const REFUND_SCRIPT = `
local charges, costs, id = KEYS[1], KEYS[2], ARGV[1]
local current = tonumber(redis.call('HGET', costs, id))
if not current then return 0 end
local back = math.min(current, tonumber(ARGV[2]))
if back <= 0 then return 0 end
if current == back then
  redis.call('HDEL', costs, id)
  redis.call('ZREM', charges, id)
else
  redis.call('HSET', costs, id, current - back)
end
redis.call('HINCRBY', costs, '#used', -back)
return back
`;

/** EVALSHA, falling back to EVAL when Redis does not know the script yet (first use, or after a restart). */
function script(source: string) {
  const sha = createHash('sha1').update(source).digest('hex');
  return async (client: Redis, keys: string[], args: Array<string | number>): Promise<unknown> => {
    try {
      return await client.evalsha(sha, keys.length, ...keys, ...args);
    } catch (e) {
      if (!(e instanceof Error) || !e.message.startsWith('NOSCRIPT')) throw e;
      return client.eval(source, keys.length, ...keys, ...args);
    }
  };
}

const runCharge = script(CHARGE_SCRIPT);
const runRefund = script(REFUND_SCRIPT);

/** The two Redis keys of one API key's ledger; the `{…}` hash tag keeps them in one cluster slot. */
export function quotaKeys(keyId: string, prefix = QUOTA_KEY_PREFIX): [charges: string, costs: string] {
  return [`${prefix}{${keyId}}:charges`, `${prefix}{${keyId}}:costs`];
}

function toOutcome(reply: unknown): ChargeOutcome {
  if (!Array.isArray(reply) || reply.length !== 5)
    throw new Error(`unexpected reply from the charge script: ${JSON.stringify(reply)}`);
  const [allowed, remaining, resetSeconds, retryAfterSeconds, chargeId] = reply as [
    number,
    number,
    number,
    number,
    string,
  ];
  return {
    allowed: allowed === 1,
    remaining,
    resetSeconds,
    retryAfterSeconds,
    chargeId: chargeId === '' ? null : chargeId,
  };
}

export interface RedisQuotaOptions {
  /** test seam: the caller's clock in ms instead of Redis TIME (see the header comment) */
  now?: () => number;
  /** key prefix, default "netdiag:quota:" */
  prefix?: string;
}

export function createRedisQuotaStore(
  connection: RedisConnection,
  policy: QuotaPolicy,
  options: RedisQuotaOptions = {},
): QuotaStore {
  const prefix = options.prefix ?? QUOTA_KEY_PREFIX;
  return {
    async charge(keyId, cost) {
      const { credits, windowSeconds } = allowanceOf(policy, keyId);
      let reply: unknown;
      try {
        const args = [credits, windowSeconds * 1000, cost, options.now ? Math.floor(options.now()) : ''];
        reply = await connection.run((client) => runCharge(client, quotaKeys(keyId, prefix), args));
      } catch (e) {
        throw connection.unavailable('credit ledger', e);
      }
      return toOutcome(reply);
    },
    async refund(keyId, chargeId, amount) {
      if (amount <= 0) return;
      try {
        await connection.run((client) => runRefund(client, quotaKeys(keyId, prefix), [chargeId, amount]));
      } catch (e) {
        throw connection.unavailable('credit ledger', e);
      }
    },
    // The connection belongs to the services (it is shared with the cache); they close it.
    async close() {},
  };
}
