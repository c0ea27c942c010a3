--[[
  Trims a queue's archive to asynq's limits, at most ARGV[4] members per call: what an archive
  leaves for later when it has more to trim than its own call may take (tasks archived 90 days
  ago or earlier, or a size already far past 9 999). Each removed member's task hash goes in the
  same call, so no task is ever left in the archive without its hash or the other way round.

  KEYS[1] asynq:{<q>}:archived
  ARGV[1] task-key prefix  asynq:{<q>}:t:
  ARGV[2] archive cutoff (now - 90 days), Unix seconds
  ARGV[3] archive size limit (10000: asynq keeps the newest 9 999)
  ARGV[4] at most this many members (at most 1000)

  Returns { removed, left (members still due), elapsed µs (the script's own TIME) }.
  Cost: O(log N + removed): about 1 µs per removed member and its hash.
]]
-- @include archive-trim
-- Redis before 5 replicates a script verbatim and then refuses writes after TIME; this makes
-- it replicate the effects instead (the default, and a no-op, since Redis 5).
if redis.replicate_commands then pcall(redis.replicate_commands) end
local t0 = redis.call('TIME')
local removed, left = trim_archive(KEYS[1], ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]))
local t = redis.call('TIME')
return { removed, left, (t[1] - t0[1]) * 1000000 + (t[2] - t0[2]) }
