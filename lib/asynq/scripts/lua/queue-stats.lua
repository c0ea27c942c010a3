--[[
  Current state sizes and counters of one or more queues, in one call.

  For queue i (0-based) the twelve keys KEYS[12*i+1 .. 12*i+12] are:
    pending, active, scheduled, retry, archived, completed,
    processed:<today>, failed:<today>, processed, failed, paused, groups
  ARGV[1]      maximum number of groups whose sizes are summed exactly
  ARGV[2*i+2]  task-key prefix   asynq:{<q>}:t:
  ARGV[2*i+3]  group-key prefix  asynq:{<q>}:g:

  Returns { elapsed µs, row of queue 0, row of queue 1, ... }. The elapsed time is the
  script's own (TIME at start and end), so the caller sizes the next call by what Redis spent,
  whatever the network. Each row is an array:
    pending, active, scheduled, retry, archived, completed,
    processed today, failed today, processed total, failed total (strings or false),
    paused-since (string) or false, number of groups,
    aggregating count, 1 if that count is exact else 0,
    pending_since (Unix ns, string) of the oldest pending task or false
  or, for a queue one of whose keys has the wrong type (a string where the active list should
  be, ...), the array { 'unreadable', key, expected type, found type }: the other queues of the
  call are still answered.

  Cost: O(1) per queue plus O(min(groups, ARGV[1])). Unlike asynq's own stats script it never
  calls MEMORY USAGE and never walks every group, so its cost does not grow with the number
  of aggregation groups; past ARGV[1] groups the aggregating count is a sample estimate.
  Every read goes through redis.pcall, so a WRONGTYPE fails only its queue; healthy data pays
  nothing more (one TYPE is called only for the key that failed).
  About 10-20 µs per queue without groups: the caller passes as many queues as keep one call
  near 1 ms (never over 5 ms), see lib/asynq/inspector/queue-stats-chunks.ts.
  Keys of several queues sit in different cluster slots: in cluster mode call it per slot.
  @readonly  never writes: runs with EVALSHA_RO on Redis 7+, so CLIENT PAUSE WRITE does not hold it.
]]
local t0 = redis.call('TIME')
local limit = tonumber(ARGV[1])
local out = { 0 }
local nq = #KEYS / 12
for i = 0, nq - 1 do
  local k = 12 * i
  local taskPrefix = ARGV[2 * i + 2]
  local groupPrefix = ARGV[2 * i + 3]
  -- The first key of this queue that failed, and the type it should have had.
  local badKey, badExpected = nil, nil
  local function checked(r, expected, key)
    if type(r) == 'table' and r.err then
      if not badKey then badKey, badExpected = key, expected end
      return false
    end
    return r
  end
  local row = {
    checked(redis.pcall('LLEN', KEYS[k + 1]), 'list', KEYS[k + 1]),
    checked(redis.pcall('LLEN', KEYS[k + 2]), 'list', KEYS[k + 2]),
    checked(redis.pcall('ZCARD', KEYS[k + 3]), 'zset', KEYS[k + 3]),
    checked(redis.pcall('ZCARD', KEYS[k + 4]), 'zset', KEYS[k + 4]),
    checked(redis.pcall('ZCARD', KEYS[k + 5]), 'zset', KEYS[k + 5]),
    checked(redis.pcall('ZCARD', KEYS[k + 6]), 'zset', KEYS[k + 6]),
    checked(redis.pcall('GET', KEYS[k + 7]), 'string', KEYS[k + 7]),
    checked(redis.pcall('GET', KEYS[k + 8]), 'string', KEYS[k + 8]),
    checked(redis.pcall('GET', KEYS[k + 9]), 'string', KEYS[k + 9]),
    checked(redis.pcall('GET', KEYS[k + 10]), 'string', KEYS[k + 10]),
    checked(redis.pcall('GET', KEYS[k + 11]), 'string', KEYS[k + 11]),
  }
  local ngroups = checked(redis.pcall('SCARD', KEYS[k + 12]), 'set', KEYS[k + 12]) or 0
  row[12] = ngroups
  local aggregating, exact = 0, 1
  if ngroups > 0 then
    local names
    if ngroups <= limit then
      names = redis.call('SMEMBERS', KEYS[k + 12])
    else
      names = redis.call('SRANDMEMBER', KEYS[k + 12], limit)
      exact = 0
    end
    for _, g in ipairs(names) do
      local gk = groupPrefix .. g
      aggregating = aggregating + (checked(redis.pcall('ZCARD', gk), 'zset', gk) or 0)
    end
    if exact == 0 then
      aggregating = math.floor(aggregating * ngroups / #names + 0.5)
    end
  end
  row[13] = aggregating
  row[14] = exact
  row[15] = false
  if row[1] then
    local oldest = redis.call('LRANGE', KEYS[k + 1], -1, -1)
    if #oldest > 0 then
      local tk = taskPrefix .. oldest[1]
      row[15] = checked(redis.pcall('HGET', tk, 'pending_since'), 'hash', tk)
    end
  end
  if badKey then
    out[i + 2] = { 'unreadable', badKey, badExpected, redis.call('TYPE', badKey)['ok'] }
  else
    out[i + 2] = row
  end
end
local t1 = redis.call('TIME')
out[1] = (t1[1] - t0[1]) * 1000000 + (t1[2] - t0[2])
return out
