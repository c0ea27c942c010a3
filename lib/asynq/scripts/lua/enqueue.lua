--[[
  Enqueue a task to run now (asynq's Enqueue).

  KEYS[1] asynq:{<q>}:t:<id>
  KEYS[2] asynq:{<q>}:pending
  ARGV[1] encoded TaskMessage
  ARGV[2] task id
  ARGV[3] now in Unix nanoseconds (decimal)

  Returns: 1 enqueued | 0 a task with this ID exists in the queue (task ID conflict)
  Cost: O(1).
]]
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'msg', ARGV[1], 'state', 'pending', 'pending_since', ARGV[3])
redis.call('LPUSH', KEYS[2], ARGV[2])
return 1
