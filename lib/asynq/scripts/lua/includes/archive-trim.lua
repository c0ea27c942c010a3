-- Keeps the archive within asynq's limits after adding to it: members scored at or before the
-- cutoff and everything past the newest 9 999 are removed, their task hashes deleted too
-- (asynq's inspector leaves those hashes behind; its worker-side archive deletes them, as we
-- do). Both rules take the lowest scores first (old members are the lowest-scored), so the two
-- together remove the lowest max(old, card - 9 999) ranks: what asynq's ZREMRANGEBYSCORE then
-- ZREMRANGEBYRANK leave, member for member.
-- At most `budget` members go per call, so one call stays short even on a huge archive; the
-- caller trims the rest in calls of their own (trim-archive.lua, lib/asynq/mutations/archive-trim.ts).
-- Returns removed, left (members still due).
-- Cost: ZCOUNT and ZCARD, O(log N); one ZRANGE, one DEL of the removed members' hashes and
-- one ZREMRANGEBYRANK, O(log N + removed). `budget` stays within what unpack takes (at most
-- 1 000 here; Lua's limit is about 8 000).
local function trim_archive(archived_key, task_prefix, cutoff, max_size, budget)
  local due = redis.call('ZCOUNT', archived_key, '-inf', cutoff)
  local over = redis.call('ZCARD', archived_key) - (max_size - 1)
  if over > due then due = over end
  local n = due
  if n > budget then n = budget end
  if n <= 0 then return 0, 0 end
  local ids = redis.call('ZRANGE', archived_key, 0, n - 1)
  local keys = {}
  for i, id in ipairs(ids) do keys[i] = task_prefix .. id end
  redis.call('DEL', unpack(keys))
  redis.call('ZREMRANGEBYRANK', archived_key, 0, n - 1)
  return n, due - n
end
