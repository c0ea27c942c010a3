--[[
  Schedule a task to run later (asynq's Schedule).

  KEYS[1] asynq:{<q>}:t:<id>
  KEYS[2] asynq:{<q>}:scheduled
  ARGV[1] encoded TaskMessage
  ARGV[2] process-at time, Unix seconds
  ARGV[3] task id

  Returns: 1 scheduled | 0 task ID conflict
  Cost: O(log N).
]]
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'msg', ARGV[1], 'state', 'scheduled')
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
return 1
