--[[
  Read the tasks of an aggregation set and its deadline (asynq's ReadAggregationSet).

  KEYS[1] asynq:{<q>}:g:<group>:<setID>
  KEYS[2] asynq:{<q>}:aggregation_sets
  ARGV[1] task-key prefix  asynq:{<q>}:t:

  Returns: { deadline (Unix seconds, or false when the set is not registered), msg, msg, ... }
  Messages come oldest first; members whose hash is gone are skipped.
  Cost: O(M) for M tasks in the set.
  @readonly  never writes: runs with EVALSHA_RO on Redis 7+, so CLIENT PAUSE WRITE does not hold it.
]]
local res = { redis.call('ZSCORE', KEYS[2], KEYS[1]) }
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local msg = redis.call('HGET', ARGV[1] .. id, 'msg')
  if msg then res[#res + 1] = msg end
end
return res
