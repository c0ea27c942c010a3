--[[
  Archive a task that failed for the last time (asynq's worker-side Archive): retries
  exhausted, a skip-retry error, or a lease that expired after the last retry.

  KEYS[1] asynq:{<q>}:t:<id>
  KEYS[2] asynq:{<q>}:active
  KEYS[3] asynq:{<q>}:lease
  KEYS[4] asynq:{<q>}:archived
  KEYS[5] asynq:{<q>}:processed:<YYYY-MM-DD>
  KEYS[6] asynq:{<q>}:failed:<YYYY-MM-DD>
  KEYS[7] asynq:{<q>}:processed
  KEYS[8] asynq:{<q>}:failed
  ARGV[1] task id
  ARGV[2] encoded TaskMessage (error_msg, last_failed_at; retried unchanged)
  ARGV[3] now, Unix seconds (the archive score)
  ARGV[4] archive cutoff, Unix seconds (now - 90 calendar days)
  ARGV[5] archive size limit (10000: the newest 9 999 stay)
  ARGV[6] daily-counter expiry, Unix seconds (now + 90 days)
  ARGV[7] 9223372036854775807 (MaxInt64)
  ARGV[8] task-key prefix  asynq:{<q>}:t:

  Returns: { 1, members still due to be trimmed } archived | -1 not in active | -2 no lease
  Trimming deletes the trimmed tasks' hashes, as asynq's worker does since v0.25, but at
  most 1000 per call so one archive never stalls Redis; the caller trims what is still due
  with trim-archive.lua.
  Always counts processed and failed. The unique lock is left alone.
  Cost: O(N) in the active list (LREM); O(log N) in the archive plus up to 1000 trimmed.
]]
-- @include leave-active
-- @include stats-counters
-- @include archive-trim
local left = leave_active(KEYS[2], KEYS[3], ARGV[1])
if left ~= 0 then return left end
redis.call('ZADD', KEYS[4], ARGV[3], ARGV[1])
local _, due = trim_archive(KEYS[4], ARGV[8], ARGV[4], tonumber(ARGV[5]), 1000)
redis.call('HSET', KEYS[1], 'msg', ARGV[2], 'state', 'archived')
incr_daily(KEYS[5], ARGV[6])
incr_daily(KEYS[6], ARGV[6])
incr_totals(KEYS[7], KEYS[8], ARGV[7])
return { 1, due }
