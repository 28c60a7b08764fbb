/**
 * The atomic steps of a job in Redis (layout: ./redis-job-keys.ts). Each is one Lua script, so that
 * instances creating, handing out, finishing and cancelling items of one job at once never lose a count.
 */
import { JOBS_PREFIX } from './redis-job-keys.js';

/**
 * Sets finishedAt and the final status once every item is finished or cancelled, and frees the job's
 * place among its key's active jobs; returns 1 when this call ended the job.
 */
const END_CHECK = `
local function end_check(h, at)
  local total = tonumber(redis.call('HGET', h, 'total'))
  local settled = tonumber(redis.call('HGET', h, 'done')) + tonumber(redis.call('HGET', h, 'cancelled'))
  if settled < total or redis.call('HGET', h, 'finishedAt') ~= '' then return 0 end
  if redis.call('HGET', h, 'status') ~= 'cancelled' then redis.call('HSET', h, 'status', 'done') end
  redis.call('HSET', h, 'finishedAt', at)
  redis.call('SREM', '${JOBS_PREFIX}active:' .. redis.call('HGET', h, 'keyId'), redis.call('HGET', h, 'id'))
  return 1
end
`;

/**
 * Creates a job unless its key has `max` active jobs already: the check and the writes are one step.
 * KEYS: the key's active set, the job hash, its targets, the key's jobs, the running set, the turns, the
 * key's turns. ARGV: max, id, keyId, targets (JSON), then the hash's fields and values.
 * Returns { 1, active } when created, { 0, active } when refused.
 */
export const CREATE_JOB = `
local active = redis.call('SCARD', KEYS[1])
if active >= tonumber(ARGV[1]) then return { 0, active } end
redis.call('SADD', KEYS[1], ARGV[2])
redis.call('SET', KEYS[3], ARGV[4])
local fields = {}
for i = 5, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[2], unpack(fields))
redis.call('ZADD', KEYS[4], 0, ARGV[2])
redis.call('SADD', KEYS[5], ARGV[2])
if not redis.call('LPOS', KEYS[6], ARGV[3]) then redis.call('RPUSH', KEYS[6], ARGV[3]) end
redis.call('RPUSH', KEYS[7], ARGV[2])
return { 1, active + 1 }
`;

/**
 * Hands out the next item: keys take turns, then each key's jobs (docs/contract/jobs.md "Behaviour":
 * fair and bounded). KEYS[1] the turns list; ARGV[1] the prefix, ARGV[2] now (ISO). Returns { id, index } or nil.
 */
export const NEXT_ITEM = `
local turns, prefix, at = KEYS[1], ARGV[1], ARGV[2]
for k = 1, redis.call('LLEN', turns) do
  local key = redis.call('LMOVE', turns, turns, 'LEFT', 'RIGHT')
  if not key then return nil end
  local jobs = prefix .. 'turns:' .. key
  for j = 1, redis.call('LLEN', jobs) do
    local id = redis.call('LMOVE', jobs, jobs, 'LEFT', 'RIGHT')
    if not id then break end
    local h = prefix .. 'job:' .. id
    local nextIndex = tonumber(redis.call('HGET', h, 'next'))
    local limit = tonumber(redis.call('HGET', h, 'limit'))
    if nextIndex and limit and nextIndex < limit then
      redis.call('HSET', h, 'next', nextIndex + 1)
      if redis.call('HGET', h, 'status') == 'queued' then redis.call('HSET', h, 'status', 'running', 'startedAt', at) end
      return { id, nextIndex }
    end
    redis.call('LREM', jobs, 0, id)
  end
  if redis.call('LLEN', jobs) == 0 then redis.call('LREM', turns, 0, key) end
end
return nil
`;

/**
 * An item's outcome, written once (an item run again after a crash does not count twice).
 * KEYS[1] job hash, KEYS[2] results hash; ARGV index, line, failed (0|1), now (ISO).
 * Returns { written (1 when this call wrote the outcome), ended (1 when this call ended the job) }.
 */
export const FINISH_ITEM = `${END_CHECK}
local written = redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2])
if written == 1 then
  redis.call('HINCRBY', KEYS[1], 'done', 1)
  if ARGV[3] == '1' then redis.call('HINCRBY', KEYS[1], 'failed', 1) end
end
return { written, end_check(KEYS[1], ARGV[4]) }
`;

/**
 * An item handed out before its job was cancelled, found waiting: it never starts, and counts once.
 * KEYS[1] job hash, KEYS[2] the job's skipped items (set); ARGV index, now.
 */
export const SKIP_ITEM = `${END_CHECK}
if redis.call('SADD', KEYS[2], ARGV[1]) == 1 then redis.call('HINCRBY', KEYS[1], 'cancelled', 1) end
return end_check(KEYS[1], ARGV[2])
`;

/**
 * Cancels: items not yet handed out never will be. KEYS[1] job hash; ARGV now. Returns { never, ended },
 * or { -1, 0 } when the job was not queued or running.
 */
export const CANCEL_JOB = `${END_CHECK}
local status = redis.call('HGET', KEYS[1], 'status')
if status ~= 'queued' and status ~= 'running' then return { -1, 0 } end
local nextIndex = tonumber(redis.call('HGET', KEYS[1], 'next'))
local never = tonumber(redis.call('HGET', KEYS[1], 'limit')) - nextIndex
redis.call('HSET', KEYS[1], 'limit', nextIndex, 'status', 'cancelled')
redis.call('HINCRBY', KEYS[1], 'cancelled', never)
return { never, end_check(KEYS[1], ARGV[1]) }
`;
