--[[
  Schedule a failed task for another attempt (asynq's Retry).

  KEYS[1] asynq:{<q>}:t:<id>
  KEYS[2] asynq:{<q>}:active
  KEYS[3] asynq:{<q>}:lease
  KEYS[4] asynq:{<q>}:retry
  KEYS[5] asynq:{<q>}:processed:<YYYY-MM-DD>
  KEYS[6] asynq:{<q>}:failed:<YYYY-MM-DD>
  KEYS[7] asynq:{<q>}:processed
  KEYS[8] asynq:{<q>}:failed
  ARGV[1] task id
  ARGV[2] encoded TaskMessage (retried +1 when a failure, error_msg, last_failed_at)
  ARGV[3] retry-at, Unix seconds
  ARGV[4] daily-counter expiry, Unix seconds (now + 90 days)
  ARGV[5] is a failure: "1" | "0" (only a failure is counted)
  ARGV[6] 9223372036854775807 (MaxInt64)

  Returns: 1 retry scheduled | -1 not in active | -2 no lease
  The unique lock is left alone: the task still exists.
  Cost: O(N) in the active list (LREM); O(log N) in the retry zset.
]]
-- @include leave-active
-- @include stats-counters
local left = leave_active(KEYS[2], KEYS[3], ARGV[1])
if left ~= 0 then return left end
redis.call('ZADD', KEYS[4], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[1], 'msg', ARGV[2], 'state', 'retry')
if tonumber(ARGV[5]) == 1 then
  incr_daily(KEYS[5], ARGV[4])
  incr_daily(KEYS[6], ARGV[4])
  incr_totals(KEYS[7], KEYS[8], ARGV[6])
end
return 1
