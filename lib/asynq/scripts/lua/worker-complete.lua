--[[
  Keep a task that succeeded as completed until its retention ends, and count it (asynq's
  MarkAsComplete, for a task without a unique lock; see worker-complete-unique.lua).

  KEYS[1] asynq:{<q>}:active
  KEYS[2] asynq:{<q>}:lease
  KEYS[3] asynq:{<q>}:completed
  KEYS[4] asynq:{<q>}:t:<id>
  KEYS[5] asynq:{<q>}:processed:<YYYY-MM-DD>
  KEYS[6] asynq:{<q>}:processed
  ARGV[1] task id
  ARGV[2] daily-counter expiry, Unix seconds (now + 90 days)
  ARGV[3] expiry of the completed task, Unix seconds (now + retention)
  ARGV[4] encoded TaskMessage with completed_at set
  ARGV[5] 9223372036854775807 (MaxInt64)

  Returns: 1 completed | -1 not in active | -2 no lease | -4 already in completed
  The hash keeps its `result` field; the janitor deletes the task after ARGV[3].
  Cost: O(N) in the active list (LREM); O(log N) in the completed zset.
]]
-- @include leave-active
-- @include stats-counters
local left = leave_active(KEYS[1], KEYS[2], ARGV[1])
if left ~= 0 then return left end
if redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1]) ~= 1 then return -4 end
redis.call('HSET', KEYS[4], 'msg', ARGV[4], 'state', 'completed')
incr_daily(KEYS[5], ARGV[2])
incr_total(KEYS[6], ARGV[5])
return 1
