--[[
  Move due scheduled or retry tasks to where they run (asynq's ForwardIfReady): to pending,
  or back into their aggregation group when the hash has a `group` field.

  KEYS[1] asynq:{<q>}:scheduled or asynq:{<q>}:retry
  KEYS[2] asynq:{<q>}:pending
  KEYS[3] asynq:{<q>}:groups
  ARGV[1] now, Unix seconds
  ARGV[2] task-key prefix  asynq:{<q>}:t:
  ARGV[3] now, Unix nanoseconds (decimal), the new pending_since
  ARGV[4] group-key prefix  asynq:{<q>}:g:

  Returns: the number of tasks moved, at most 100 so one call stays short; the caller repeats
  while it is not 0, as asynq does.
  A task sent back to its group also puts the group's name back into asynq:{<q>}:groups:
  asynq does not, and a group missing from that set is never aggregated.
  Cost: O(log N + 100) per call.
]]
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 100)
for _, id in ipairs(ids) do
  local key = ARGV[2] .. id
  local group = redis.call('HGET', key, 'group')
  if group and group ~= '' then
    redis.call('ZADD', ARGV[4] .. group, ARGV[1], id)
    redis.call('SADD', KEYS[3], group)
    redis.call('ZREM', KEYS[1], id)
    redis.call('HSET', key, 'state', 'aggregating')
  else
    redis.call('LPUSH', KEYS[2], id)
    redis.call('ZREM', KEYS[1], id)
    redis.call('HSET', key, 'state', 'pending', 'pending_since', ARGV[3])
  end
end
return #ids
