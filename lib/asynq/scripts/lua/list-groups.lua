--[[
  The aggregation groups of a queue with their sizes.

  KEYS[1] asynq:{<q>}:groups
  ARGV[1] group-key prefix  asynq:{<q>}:g:

  Returns a flat array { name1, size1, name2, size2, ... } in set order.
  Cost: O(G) for G groups; one round trip, where asynq's inspector takes one per group.
  @readonly  never writes: runs with EVALSHA_RO on Redis 7+, so CLIENT PAUSE WRITE does not hold it.
]]
local out = {}
for _, g in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  out[#out + 1] = g
  out[#out + 1] = redis.call('ZCARD', ARGV[1] .. g)
end
return out
