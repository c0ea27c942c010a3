--[[
  Enqueue a task to run now (asynq's Enqueue).

  KEYS[1] asynq:{<q>}:t:<id>
  KEYS[2] asynq:{<q>}:pending
  KEYS[3] asynq:queues (optional: on a single Redis the queue is registered in this call, one
          command instead of asynq's SADD + script pipeline; a Cluster keeps asynq:queues in
          another slot and sends SADD beside the script)
  ARGV[1] encoded TaskMessage
  ARGV[2] task id
  ARGV[3] now in Unix nanoseconds (decimal)
  ARGV[4] queue name (with KEYS[3])

  Returns: 1 enqueued | 0 a task with this ID exists in the queue (task ID conflict; the
  queue is registered all the same, as asynq's SADD runs first)
  Cost: O(1).
]]
if KEYS[3] then redis.call('SADD', KEYS[3], ARGV[4]) end
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'msg', ARGV[1], 'state', 'pending', 'pending_since', ARGV[3])
redis.call('LPUSH', KEYS[2], ARGV[2])
return 1
