--[[
  Put the tasks of aggregation sets whose deadline passed back into their groups (asynq's
  ReclaimStaleAggregationSets): the server that took them died before finishing.

  KEYS[1] asynq:{<q>}:aggregation_sets
  KEYS[2] asynq:{<q>}:groups
  ARGV[1] now, Unix seconds
  ARGV[2] group-key prefix  asynq:{<q>}:g:

  Returns: the number of sets reclaimed
  The group key is the set key minus its last `:<setID>`. Unlike asynq, the group's name goes
  back into asynq:{<q>}:groups: the check that made the set may have removed it, and a group
  missing from that set is never aggregated again.
  Cost: O(S x M) for S stale sets of M tasks.
]]
local stale = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
for _, key in ipairs(stale) do
  local group_key = string.sub(key, 1, string.find(key, ':[^:]*$') - 1)
  local res = redis.call('ZRANGE', key, 0, -1, 'WITHSCORES')
  for i = 1, #res - 1, 2 do
    redis.call('ZADD', group_key, tonumber(res[i + 1]), res[i])
  end
  redis.call('DEL', key)
  redis.call('SADD', KEYS[2], string.sub(group_key, #ARGV[2] + 1))
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return #stale
