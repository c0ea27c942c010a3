--[[
  Delete a task that succeeded and count it (asynq's Done, for a task without a unique lock;
  worker-done-unique.lua takes the lock as a key, since a cluster refuses an empty key name).

  KEYS[1] asynq:{<q>}:active
  KEYS[2] asynq:{<q>}:lease
  KEYS[3] asynq:{<q>}:t:<id>
  KEYS[4] asynq:{<q>}:processed:<YYYY-MM-DD>
  KEYS[5] asynq:{<q>}:processed
  ARGV[1] task id
  ARGV[2] daily-counter expiry, Unix seconds (now + 90 days)
  ARGV[3] 9223372036854775807 (MaxInt64)

  Returns: 1 done | -1 not in active | -2 no lease | -3 task hash missing
  Cost: O(N) in the active list (LREM); O(1) otherwise.
]]
-- @include leave-active
-- @include stats-counters
local left = leave_active(KEYS[1], KEYS[2], ARGV[1])
if left ~= 0 then return left end
if redis.call('DEL', KEYS[3]) == 0 then return -3 end
incr_daily(KEYS[4], ARGV[2])
incr_total(KEYS[5], ARGV[3])
return 1
