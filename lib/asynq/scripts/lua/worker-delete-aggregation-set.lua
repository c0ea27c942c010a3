--[[
  Delete an aggregation set and its tasks once the aggregated task is enqueued (asynq's
  DeleteAggregationSet).

  KEYS[1] asynq:{<q>}:g:<group>:<setID>
  KEYS[2] asynq:{<q>}:aggregation_sets
  ARGV[1] task-key prefix  asynq:{<q>}:t:

  Returns: the number of task hashes deleted
  The members' unique locks are not touched, as in asynq.
  Cost: O(M) for M tasks in the set.
]]
local n = 0
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  n = n + redis.call('DEL', ARGV[1] .. id)
end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], KEYS[1])
return n
