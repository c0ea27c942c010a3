--[[
  Give an unfinished task back to its queue when a server shuts down (asynq's Requeue).

  KEYS[1] asynq:{<q>}:active
  KEYS[2] asynq:{<q>}:lease
  KEYS[3] asynq:{<q>}:pending
  KEYS[4] asynq:{<q>}:t:<id>
  ARGV[1] task id

  Returns: 1 requeued | -1 not in active | -2 no lease
  RPUSH puts it at the tail, so it is the next task dequeued. Like asynq: no pending_since,
  no counters, msg untouched.
  Cost: O(N) in the active list (LREM); O(1) otherwise.
]]
-- @include leave-active
local left = leave_active(KEYS[1], KEYS[2], ARGV[1])
if left ~= 0 then return left end
redis.call('RPUSH', KEYS[3], ARGV[1])
redis.call('HSET', KEYS[4], 'state', 'pending')
return 1
