--[[
  Remove an empty queue's structures (the last step of asynq's RemoveQueue; a forced delete
  first empties the queue in batches with move-all). The caller then SREMs the name from
  asynq:queues, a key in another cluster slot.

  KEYS[1] pending  KEYS[2] active  KEYS[3] scheduled  KEYS[4] retry  KEYS[5] archived
  KEYS[6] lease

  Returns: 1 removed | -1 queue not empty | -2 queue has active tasks
  Like asynq it keeps completed tasks, groups, counters, the paused flag and unique locks.
  Cost: O(1).
]]
if redis.call('LLEN', KEYS[2]) > 0 then return -2 end
for i = 1, 5 do
  local n
  if i <= 2 then n = redis.call('LLEN', KEYS[i]) else n = redis.call('ZCARD', KEYS[i]) end
  if n > 0 then return -1 end
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6])
return 1
