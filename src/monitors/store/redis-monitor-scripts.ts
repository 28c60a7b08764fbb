/**
 * The atomic steps of monitors in Redis (layout: ./redis-monitor-keys.ts). What the embedded store commits
 * in one LMDB transaction (./embedded-monitor-store.ts) is one Lua script here, so that instances sharing
 * one Redis never interleave inside it. The scripts decide nothing the pure functions decide: the store
 * evaluates a run (../evaluate.ts) or a charge (../allowance.ts) in Node over the state it read, and the
 * script writes the result only if that state is still the one read (a version), else answers `retry`.
 *
 * Run ids are compared byte by byte (`le`): Lua's `<=` on strings follows the server's collation locale.
 */

/** a <= b, byte by byte (as JavaScript compares ASCII strings) */
const LE = `
local function le(a, b)
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a <= #b
end
`;

/**
 * Numbers and writes the events given in ARGV from `from` on (pairs of the event's JSON without id and
 * monitorId, and its time in ms); returns the first number given. The id and monitorId are written first,
 * as the embedded store's `{ id, monitorId, ...event }`. A monitor with a webhook (`hook`) joins the index
 * of monitors with events to deliver (`undelivered`), in the same step as its events.
 */
const ADD_EVENTS = `
local function add_events(h, events, times, id, from, undelivered)
  local seq = tonumber(redis.call('HGET', h, 'eventSeq'))
  local first = seq + 1
  for i = from, #ARGV, 2 do
    seq = seq + 1
    local json = '{"id":' .. cjson.encode(id .. '.' .. seq) .. ',"monitorId":' .. cjson.encode(id) .. ',' .. string.sub(ARGV[i], 2)
    redis.call('ZADD', events, seq, json)
    redis.call('ZADD', times, ARGV[i + 1], seq)
  end
  redis.call('HSET', h, 'eventSeq', seq)
  if seq >= first and redis.call('HGET', h, 'hook') == '1' then redis.call('ZADD', undelivered, 0, id) end
  return first
end
`;

/** Deletes up to `max` events older than `cutoff` (ms); returns how many. */
const PRUNE = `
local function prune_events(events, times, cutoff, max)
  local old = redis.call('ZRANGEBYSCORE', times, '-inf', '(' .. cutoff, 'LIMIT', 0, max)
  for _, seq in ipairs(old) do
    redis.call('ZREMRANGEBYSCORE', events, seq, seq)
    redis.call('ZREM', times, seq)
  end
  return #old
end
`;

/**
 * Creates a monitor unless its key would pass a limit: the check and the writes are one step.
 * KEYS: the key's usage, the key's list, the monitor's hash, every monitor. ARGV: maxPerKey, maxPairsPerKey,
 * the monitor's pairs, its list entry, its id, then the hash's fields and values.
 * Returns 'ok', 'monitors' or 'pairs' (the limit it would pass), or 'exists'.
 */
export const CREATE_MONITOR = `
if redis.call('EXISTS', KEYS[3]) == 1 then return 'exists' end
local usage = redis.call('HMGET', KEYS[1], 'monitors', 'pairs')
local monitors, pairs = tonumber(usage[1] or '0'), tonumber(usage[2] or '0')
if monitors + 1 > tonumber(ARGV[1]) then return 'monitors' end
if pairs + tonumber(ARGV[3]) > tonumber(ARGV[2]) then return 'pairs' end
redis.call('HINCRBY', KEYS[1], 'monitors', 1)
redis.call('HINCRBY', KEYS[1], 'pairs', ARGV[3])
redis.call('ZADD', KEYS[2], 0, ARGV[4])
redis.call('ZADD', KEYS[4], 0, ARGV[5])
local fields = {}
for i = 6, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[3], unpack(fields))
return 'ok'
`;

/**
 * A PATCH, over the record's version read. KEYS: the monitor's hash, the undelivered index; ARGV: the
 * version read, the new version, the new record (JSON), paused (0|1), 1 when a webhook starts (it receives
 * the events made from now on), whether it has a webhook (0|1), the monitor's id. Returns 1 written,
 * 0 gone, -1 changed since read (read again).
 */
export const UPDATE_MONITOR = `
local rv = redis.call('HGET', KEYS[1], 'rv')
if not rv then return 0 end
if rv ~= ARGV[1] then return -1 end
redis.call('HSET', KEYS[1], 'rec', ARGV[3], 'paused', ARGV[4], 'rv', ARGV[2], 'hook', ARGV[6])
if ARGV[5] == '1' then redis.call('HSET', KEYS[1], 'deliveredSeq', redis.call('HGET', KEYS[1], 'eventSeq')) end
if ARGV[6] == '0' then redis.call('ZREM', KEYS[2], ARGV[7]) end
return 1
`;

/**
 * Deletes a monitor's definition and progress and frees its place in its key's usage; what it left (runs,
 * states, events) is purged after, by batches. KEYS: the monitor's hash, every monitor, the deleted set,
 * the undelivered index. ARGV: the prefix, the id. Returns 1, or 0 for an unknown id.
 */
export const DELETE_MONITOR = `
local h = KEYS[1]
local f = redis.call('HMGET', h, 'keyId', 'member', 'pairs')
if not f[1] then return 0 end
redis.call('ZREM', ARGV[1] .. 'key:' .. f[1], f[2])
redis.call('HINCRBY', ARGV[1] .. 'usage:' .. f[1], 'monitors', -1)
redis.call('HINCRBY', ARGV[1] .. 'usage:' .. f[1], 'pairs', -tonumber(f[3]))
redis.call('DEL', h)
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[2])
redis.call('ZREM', KEYS[4], ARGV[2])
return 1
`;

/**
 * Takes a due run (docs/contract/monitors.md "Behaviour": runs never overlap), deciding as the embedded
 * store does. KEYS[1] the monitor's hash; ARGV: run id, now (ISO), the next due time (ISO).
 * Returns { outcome } or { 'resume', charged (0|1) }.
 */
export const BEGIN_RUN = `${LE}
local h = KEYS[1]
if redis.call('EXISTS', h) == 0 then return { 'gone' } end
local f = redis.call('HMGET', h, 'curRunId', 'curCharged', 'lastRunId', 'paused')
local current, charged, last, paused = f[1], f[2], f[3], f[4]
if current ~= '' and current == ARGV[1] then return { 'resume', charged } end
if last ~= '' and le(ARGV[1], last) then return { 'stale' } end
if current ~= '' then
  redis.call('HINCRBY', h, 'skipped', 1)
  redis.call('HSET', h, 'nextRunAt', ARGV[3])
  return { 'busy' }
end
if paused == '1' then
  redis.call('HSET', h, 'nextRunAt', ARGV[3])
  return { 'paused' }
end
redis.call('HSET', h, 'curRunId', ARGV[1], 'curStartedAt', ARGV[2], 'curCharged', '0', 'lastRunId', ARGV[1], 'nextRunAt', ARGV[3])
return { 'start' }
`;

/**
 * A begun run's charge (../allowance.ts evaluated in Node over the pause read). KEYS: the monitor's hash,
 * its events, their times, the undelivered index. ARGV: run id, the allowance's pause read (0|1), the new pause (0|1), covered
 * (0|1), now (ISO), the monitor's id, then the events (JSON, ms). Returns the first event number given (or
 * the next one when there are none), 0 when the run is not the current one, -1 when the pause changed since read.
 */
export const RECORD_CHARGE = `${ADD_EVENTS}
local h = KEYS[1]
local f = redis.call('HMGET', h, 'curRunId', 'allowancePaused')
if f[1] ~= ARGV[1] then return 0 end
if f[2] ~= ARGV[2] then return -1 end
redis.call('HSET', h, 'allowancePaused', ARGV[3])
if ARGV[4] == '1' then
  redis.call('HSET', h, 'curCharged', '1', 'lastRunAt', ARGV[5])
  redis.call('HINCRBY', h, 'runs', 1)
else
  redis.call('HSET', h, 'curRunId', '', 'curStartedAt', '', 'curCharged', '0')
end
return add_events(h, KEYS[2], KEYS[3], ARGV[6], 7, KEYS[4])
`;

/**
 * One item's outcome: the run, the pair's new state and its events together (../evaluate.ts evaluated in
 * Node over the state read), with the pair's last run id read as its version.
 * KEYS: the monitor's hash, states, last, runs, order, the pair's runs, events, event times, the
 * undelivered index.
 * ARGV: 1 pair field, 2 the pair's last run id read ('' none), 3 run id, 4 the new state (JSON), 5 the
 * run (JSON, without its number), 6 `<targetIndex>|<check>`, 7 keepRuns, 8 events older than this (ms)
 * are pruned on the way, 9 the monitor's id, 10… the events (JSON, ms).
 * Returns { 'ok', first event number }, { 'duplicate' }, { 'gone' } or { 'retry' } (the pair changed since read).
 */
export const RECORD_OUTCOME = `${LE}${ADD_EVENTS}${PRUNE}
local h = KEYS[1]
if redis.call('EXISTS', h) == 0 then return { 'gone' } end
local last = redis.call('HGET', KEYS[3], ARGV[1]) or ''
if last ~= '' and le(ARGV[3], last) then return { 'duplicate' } end
if last ~= ARGV[2] then return { 'retry' } end
local seq = redis.call('HINCRBY', h, 'runSeq', 1)
redis.call('HSET', KEYS[4], seq, '{"seq":' .. seq .. ',' .. string.sub(ARGV[5], 2))
redis.call('ZADD', KEYS[5], seq, seq .. '|' .. ARGV[6])
redis.call('ZADD', KEYS[6], seq, seq)
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
-- the pair's oldest runs past keepRuns, a few at a time when the setting was lowered
local excess = math.min(redis.call('ZCARD', KEYS[6]) - tonumber(ARGV[7]), 8)
if excess > 0 then
  local oldest = redis.call('ZPOPMIN', KEYS[6], excess)
  for i = 1, #oldest, 2 do
    redis.call('HDEL', KEYS[4], oldest[i])
    redis.call('ZREMRANGEBYSCORE', KEYS[5], oldest[i], oldest[i])
  end
end
local first = add_events(h, KEYS[7], KEYS[8], ARGV[9], 10, KEYS[9])
prune_events(KEYS[7], KEYS[8], ARGV[8], 8)
return { 'ok', first }
`;

/** Ends the current run. KEYS[1] the monitor's hash; ARGV run id, now (ISO). */
export const FINISH_RUN = `
local h = KEYS[1]
if redis.call('HGET', h, 'curRunId') ~= ARGV[1] then return 0 end
redis.call('HSET', h, 'curRunId', '', 'curStartedAt', '', 'curCharged', '0')
if redis.call('HGET', h, 'lastRunAt') == '' then redis.call('HSET', h, 'lastRunAt', ARGV[2]) end
return 1
`;

/**
 * An event delivered, or given up after its tries. KEYS: the monitor's hash, the undelivered index; ARGV
 * the event's number, 1 when given up, the error, the monitor's id. The last event delivered takes the
 * monitor out of the index.
 */
export const MARK_DELIVERED = `
local h = KEYS[1]
local delivered = redis.call('HGET', h, 'deliveredSeq')
if not delivered or tonumber(ARGV[1]) <= tonumber(delivered) then return 0 end
if ARGV[2] == '1' then
  redis.call('HSET', h, 'deliveredSeq', ARGV[1], 'deliveryStatus', 'failing', 'lastError', ARGV[3])
  redis.call('HINCRBY', h, 'failedEvents', 1)
else
  redis.call('HSET', h, 'deliveredSeq', ARGV[1], 'deliveryStatus', 'ok')
end
if tonumber(ARGV[1]) >= tonumber(redis.call('HGET', h, 'eventSeq')) then redis.call('ZREM', KEYS[2], ARGV[4]) end
return 1
`;

/** KEYS: a monitor's events, their times; ARGV: events older than this (ms) go, at most this many. */
export const PRUNE_EVENTS = `${PRUNE}
return prune_events(KEYS[1], KEYS[2], ARGV[1], tonumber(ARGV[2]))
`;
