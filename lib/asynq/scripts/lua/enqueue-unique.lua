--[[
  Enqueue a unique task to run now (asynq's EnqueueUnique).

  KEYS[1] asynq:{<q>}:unique:<type>:<md5 of payload>
  KEYS[2] asynq:{<q>}:t:<id>
  KEYS[3] asynq:{<q>}:pending
  ARGV[1] task id
  ARGV[2] lock TTL in whole seconds
  ARGV[3] encoded TaskMessage
  ARGV[4] now in Unix nanoseconds (decimal)

  Returns: 1 enqueued | -1 the lock is held (duplicate task) | 0 task ID conflict
  On a conflict the lock this call just took is given back (asynq keeps it until its TTL
  ends, which blocks every later enqueue of the same payload for nothing).
  Cost: O(1).
]]
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2]) then return -1 end
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('DEL', KEYS[1])
  return 0
end
redis.call('HSET', KEYS[2], 'msg', ARGV[3], 'state', 'pending', 'pending_since', ARGV[4], 'unique_key', KEYS[1])
redis.call('LPUSH', KEYS[3], ARGV[1])
return 1
