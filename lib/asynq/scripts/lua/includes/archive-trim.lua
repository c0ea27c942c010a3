-- Keeps the archive within asynq's limits after adding to it: members older than the cutoff
-- and everything past the newest 9 999 are removed, their task hashes deleted too (asynq's
-- inspector leaves those hashes behind; its worker-side archive deletes them, as we do).
-- At most `budget` members go per call, so one call stays short even on a huge archive;
-- what is left goes on the next call. Returns the number removed.
-- Cost: one DEL of the removed members' hashes per rule (a redis.call per hash would cost
-- about 0.5 µs more each), the zset written once per rule (ZREM of the old ones,
-- ZREMRANGEBYRANK of the oldest past the limit). `budget` stays within what unpack takes
-- (at most 1 000 here; Lua's limit is about 8 000).
local function del_hashes(task_prefix, ids)
  local keys = {}
  for i, id in ipairs(ids) do keys[i] = task_prefix .. id end
  if #keys > 0 then redis.call('DEL', unpack(keys)) end
end

local function trim_archive(archived_key, task_prefix, cutoff, max_size, budget)
  local removed = 0
  local old = redis.call('ZRANGE', archived_key, '-inf', cutoff, 'BYSCORE', 'LIMIT', 0, budget)
  if #old > 0 then
    del_hashes(task_prefix, old)
    redis.call('ZREM', archived_key, unpack(old))
    removed = #old
  end
  local over = redis.call('ZCARD', archived_key) - (max_size - 1)
  if over > budget - removed then over = budget - removed end
  if over > 0 then
    del_hashes(task_prefix, redis.call('ZRANGE', archived_key, 0, over - 1))
    redis.call('ZREMRANGEBYRANK', archived_key, 0, over - 1)
    removed = removed + over
  end
  return removed
end
