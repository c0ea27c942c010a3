--[[
  Current state sizes and counters of one or more queues, in one call.

  KEYS[i]      the key prefix of queue i, asynq:{<q>}: (it carries the queue's hash slot; the
               script appends the suffixes below to it, so one short string per queue crosses
               the wire instead of fourteen keys and prefixes)
  ARGV[1]      maximum number of groups whose sizes are summed exactly
  ARGV[2..15]  the suffixes, from keys.ts: pending, active, scheduled, retry, archived,
               completed, processed:<today>, failed:<today>, processed, failed, paused, groups,
               then the task-key prefix (t:) and the group-key prefix (g:)
  ARGV[16]     budget, µs: once the call has run this long (checked every CHECK_EVERY queues),
               it stops after the queue at hand and answers the queues read so far
  ARGV[17]     queues always read whatever the clock says (MIN_CHUNK, 40: at most about 2.8 ms
               even with many groups), so a small deployment is one call even on a busy Redis

  Returns { elapsed µs, row of queue 1, row of queue 2, ... }, a row for each of the first
  queues up to where the budget stopped it (at least one: the caller sends the rest again).
  The elapsed time is the script's own (TIME at start and end), so the caller sizes the next
  call by what Redis spent, whatever the network. Each row is an array:
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
  The five string keys are read with one MGET (which answers nil for a key of another type)
  and, unless all five exist, one EXISTS over them: a count that differs from MGET's means a
  key of another type, and only then are they read one by one to name it. Every other read
  goes through redis.pcall, so a WRONGTYPE fails only its queue; one TYPE is called only for
  the key that failed. About 9-12 commands and 10-20 µs per queue without groups: the caller
  passes as many queues as keep one call near 1 ms, see lib/asynq/inspector/queue-stats-chunks.ts,
  and a call that meets costlier queues than it was sized for (or a slower Redis) stops at
  ARGV[16] (CALL_BUDGET_US, 2 ms) plus at most CHECK_EVERY queues, far under the 5 ms a call may take.
  Keys of several queues sit in different cluster slots: in cluster mode call it per slot.
  @readonly  never writes: runs with EVALSHA_RO on Redis 7+, so CLIENT PAUSE WRITE does not hold it.
]]
local t0 = redis.call('TIME')
local limit = tonumber(ARGV[1])
local budget = tonumber(ARGV[16])
local always = tonumber(ARGV[17]) or 0
-- TIME costs about as much as a queue's cheapest read: every few queues is often enough.
local CHECK_EVERY = 8
local PENDING, ACTIVE, SCHEDULED, RETRY, ARCHIVED, COMPLETED = ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7]
local STRINGS = { ARGV[8], ARGV[9], ARGV[10], ARGV[11], ARGV[12] }
local GROUPS, TASK, GROUP = ARGV[13], ARGV[14], ARGV[15]
local out = { 0 }
-- The current queue's key prefix, its first key that failed and the type it should have had.
local p, badKey, badExpected
-- `r`, or false when it is an error (a key of another type), noting the first such key.
local function checked(r, expected, suffix)
  if type(r) == 'table' and r.err then
    if not badKey then badKey, badExpected = p .. suffix, expected end
    return false
  end
  return r
end
for i = 1, #KEYS do
  p = KEYS[i]
  badKey, badExpected = nil, nil
  local pendingKey = p .. PENDING
  local row = {
    checked(redis.pcall('LLEN', pendingKey), 'list', PENDING),
    checked(redis.pcall('LLEN', p .. ACTIVE), 'list', ACTIVE),
    checked(redis.pcall('ZCARD', p .. SCHEDULED), 'zset', SCHEDULED),
    checked(redis.pcall('ZCARD', p .. RETRY), 'zset', RETRY),
    checked(redis.pcall('ZCARD', p .. ARCHIVED), 'zset', ARCHIVED),
    checked(redis.pcall('ZCARD', p .. COMPLETED), 'zset', COMPLETED),
  }
  local strings = { p .. STRINGS[1], p .. STRINGS[2], p .. STRINGS[3], p .. STRINGS[4], p .. STRINGS[5] }
  local values = redis.call('MGET', strings[1], strings[2], strings[3], strings[4], strings[5])
  local found = 0
  for j = 1, 5 do
    if values[j] then found = found + 1 end
    row[6 + j] = values[j]
  end
  if found < 5 and redis.call('EXISTS', strings[1], strings[2], strings[3], strings[4], strings[5]) ~= found then
    for j = 1, 5 do
      if not values[j] then checked(redis.pcall('GET', strings[j]), 'string', STRINGS[j]) end
    end
  end
  local groupsKey = p .. GROUPS
  local ngroups = checked(redis.pcall('SCARD', groupsKey), 'set', GROUPS) or 0
  row[12] = ngroups
  local aggregating, exact = 0, 1
  if ngroups > 0 then
    local names
    if ngroups <= limit then
      names = redis.call('SMEMBERS', groupsKey)
    else
      names = redis.call('SRANDMEMBER', groupsKey, limit)
      exact = 0
    end
    for _, g in ipairs(names) do
      aggregating = aggregating + (checked(redis.pcall('ZCARD', p .. GROUP .. g), 'zset', GROUP .. g) or 0)
    end
    if exact == 0 then
      aggregating = math.floor(aggregating * ngroups / #names + 0.5)
    end
  end
  row[13] = aggregating
  row[14] = exact
  row[15] = false
  if row[1] and row[1] > 0 then
    local oldest = redis.call('LRANGE', pendingKey, -1, -1)
    if #oldest > 0 then
      row[15] = checked(redis.pcall('HGET', p .. TASK .. oldest[1], 'pending_since'), 'hash', TASK .. oldest[1])
    end
  end
  if badKey then
    out[i + 1] = { 'unreadable', badKey, badExpected, redis.call('TYPE', badKey)['ok'] }
  else
    out[i + 1] = row
  end
  if i >= always and i % CHECK_EVERY == 0 and i < #KEYS then
    local t = redis.call('TIME')
    if (t[1] - t0[1]) * 1000000 + (t[2] - t0[2]) >= budget then break end
  end
end
local t1 = redis.call('TIME')
out[1] = (t1[1] - t0[1]) * 1000000 + (t1[2] - t0[2])
return out
