-- Takes a task out of the active list and the lease zset, the first step of every way a
-- worker finishes a task. Stops at the first miss, like asynq's scripts, so a task another
-- server already recovered is left alone. Returns 0 | -1 not active | -2 no lease.
-- Cost: O(N) in the active list (LREM), O(log N) in the lease zset.
local function leave_active(active_key, lease_key, id)
  if redis.call('LREM', active_key, 0, id) == 0 then return -1 end
  if redis.call('ZREM', lease_key, id) == 0 then return -2 end
  return 0
end
