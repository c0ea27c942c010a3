--[[
  Delete completed tasks whose retention has ended (asynq's janitor).

  KEYS[1] asynq:{<q>}:completed
  ARGV[1] now, Unix seconds
  ARGV[2] task-key prefix  asynq:{<q>}:t:
  ARGV[3] batch size (asynq's default 100)

  Returns: the number deleted; the caller repeats until 0.
  Unique locks are not touched (Done already released them).
  Cost: O(log N + batch).
]]
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do
  redis.call('DEL', ARGV[2] .. id)
  redis.call('ZREM', KEYS[1], id)
end
return #ids
