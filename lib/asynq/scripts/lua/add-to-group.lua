--[[
  Add a task to an aggregation group (asynq's AddToGroup).

  KEYS[1] asynq:{<q>}:t:<id>
  KEYS[2] asynq:{<q>}:g:<group>
  KEYS[3] asynq:{<q>}:groups
  ARGV[1] encoded TaskMessage
  ARGV[2] task id
  ARGV[3] now, Unix seconds
  ARGV[4] group name

  Returns: 1 added | 0 task ID conflict
  Cost: O(log N).
]]
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'msg', ARGV[1], 'state', 'aggregating', 'group', ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[4])
return 1
