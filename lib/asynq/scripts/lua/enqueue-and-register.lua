--[[
  Enqueue a task to run now, registering its queue in the same call: asynq's client sends
  SADD asynq:queues before its enqueue script; on a single Redis both fit in one script, so an
  enqueue is one command instead of a two-command pipeline (half the client's CPU per task).
  Not for a Cluster: asynq:queues lives in another slot than the queue's keys.

  KEYS[1] asynq:{<q>}:t:<id>
  KEYS[2] asynq:{<q>}:pending
  KEYS[3] asynq:queues
  ARGV[1] encoded TaskMessage
  ARGV[2] task id
  ARGV[3] now in Unix nanoseconds (decimal)
  ARGV[4] queue name

  Returns: 1 enqueued | 0 a task with this ID exists in the queue (task ID conflict; the
  queue is registered all the same, as asynq's SADD runs first)
  Cost: O(1). The rest is enqueue.lua, line for line.
]]
redis.call('SADD', KEYS[3], ARGV[4])
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'msg', ARGV[1], 'state', 'pending', 'pending_since', ARGV[3])
redis.call('LPUSH', KEYS[2], ARGV[2])
return 1
