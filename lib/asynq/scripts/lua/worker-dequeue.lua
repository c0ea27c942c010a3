--[[
  Take the oldest pending task of one queue for processing (asynq's Dequeue), unless the
  queue is paused.

  KEYS[1] asynq:{<q>}:pending
  KEYS[2] asynq:{<q>}:paused
  KEYS[3] asynq:{<q>}:active
  KEYS[4] asynq:{<q>}:lease
  ARGV[1] lease expiry, Unix seconds (now + 30 s)
  ARGV[2] task-key prefix  asynq:{<q>}:t:

  Returns: the encoded TaskMessage | nil when paused or empty
  The ID moves from the tail of pending to the head of active, the hash gets state=active
  and loses pending_since, and the lease zset gets the ID. An ID whose hash is gone is
  dropped from active and lease again (asynq leaves it there, where nothing ever removes it)
  and nil is returned; the caller simply tries again.
  Cost: O(1).
]]
if redis.call('EXISTS', KEYS[2]) == 1 then return nil end
local id = redis.call('RPOPLPUSH', KEYS[1], KEYS[3])
if not id then return nil end
local key = ARGV[2] .. id
local msg = redis.call('HGET', key, 'msg')
if not msg then
  redis.call('LREM', KEYS[3], 1, id)
  return nil
end
redis.call('HSET', key, 'state', 'active')
redis.call('HDEL', key, 'pending_since')
redis.call('ZADD', KEYS[4], ARGV[1], id)
return msg
