--[[
  Current state sizes and counters of one or more queues, in one call.

  For queue i (0-based) the twelve keys KEYS[12*i+1 .. 12*i+12] are:
    pending, active, scheduled, retry, archived, completed,
    processed:<today>, failed:<today>, processed, failed, paused, groups
  ARGV[1]      maximum number of groups whose sizes are summed exactly
  ARGV[2*i+2]  task-key prefix   asynq:{<q>}:t:
  ARGV[2*i+3]  group-key prefix  asynq:{<q>}:g:

  Returns, per queue, an array:
    pending, active, scheduled, retry, archived, completed,
    processed today, failed today, processed total, failed total (strings or false),
    paused-since (string) or false, number of groups,
    aggregating count, 1 if that count is exact else 0,
    pending_since (Unix ns, string) of the oldest pending task or false

  Cost: O(1) per queue plus O(min(groups, ARGV[1])). Unlike asynq's own stats script it never
  calls MEMORY USAGE and never walks every group, so its cost does not grow with the number
  of aggregation groups; past ARGV[1] groups the aggregating count is a sample estimate.
  Keys of several queues sit in different cluster slots: in cluster mode call it per queue.
  @readonly  never writes: runs with EVALSHA_RO on Redis 7+, so CLIENT PAUSE WRITE does not hold it.
]]
local limit = tonumber(ARGV[1])
local out = {}
local nq = #KEYS / 12
for i = 0, nq - 1 do
  local k = 12 * i
  local taskPrefix = ARGV[2 * i + 2]
  local groupPrefix = ARGV[2 * i + 3]
  local row = {
    redis.call('LLEN', KEYS[k + 1]),
    redis.call('LLEN', KEYS[k + 2]),
    redis.call('ZCARD', KEYS[k + 3]),
    redis.call('ZCARD', KEYS[k + 4]),
    redis.call('ZCARD', KEYS[k + 5]),
    redis.call('ZCARD', KEYS[k + 6]),
    redis.call('GET', KEYS[k + 7]),
    redis.call('GET', KEYS[k + 8]),
    redis.call('GET', KEYS[k + 9]),
    redis.call('GET', KEYS[k + 10]),
    redis.call('GET', KEYS[k + 11]),
  }
  local ngroups = redis.call('SCARD', KEYS[k + 12])
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
      aggregating = aggregating + redis.call('ZCARD', groupPrefix .. g)
    end
    if exact == 0 then
      aggregating = math.floor(aggregating * ngroups / #names + 0.5)
    end
  end
  row[13] = aggregating
  row[14] = exact
  local oldest = redis.call('LRANGE', KEYS[k + 1], -1, -1)
  row[15] = false
  if #oldest > 0 then
    row[15] = redis.call('HGET', taskPrefix .. oldest[1], 'pending_since')
  end
  out[i + 1] = row
end
return out
