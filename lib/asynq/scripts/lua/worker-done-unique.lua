--[[
  Delete a task that succeeded, count it and release its unique lock if it still holds this
  task's ID (asynq's Done for a task whose msg names a lock).

  KEYS[1] asynq:{<q>}:active
  KEYS[2] asynq:{<q>}:lease
  KEYS[3] asynq:{<q>}:t:<id>
  KEYS[4] asynq:{<q>}:processed:<YYYY-MM-DD>
  KEYS[5] asynq:{<q>}:processed
  KEYS[6] asynq:{<q>}:unique:<type>:<md5 of payload>
  ARGV[1] task id
  ARGV[2] daily-counter expiry, Unix seconds (now + 90 days)
  ARGV[3] 9223372036854775807 (MaxInt64)

  Returns: 1 done | -1 not in active | -2 no lease | -3 task hash missing
  A lock taken over by a later task (after this one's TTL ran out) stays with that task.
  Cost: O(N) in the active list (LREM); O(1) otherwise.
]]
-- @include leave-active
-- @include stats-counters
local left = leave_active(KEYS[1], KEYS[2], ARGV[1])
if left ~= 0 then return left end
if redis.call('DEL', KEYS[3]) == 0 then return -3 end
incr_daily(KEYS[4], ARGV[2])
incr_total(KEYS[5], ARGV[3])
if redis.call('GET', KEYS[6]) == ARGV[1] then redis.call('DEL', KEYS[6]) end
return 1
