-- The holder and PTTL (ms) of the unique lock `ukey`, read only when the key sits under this
-- queue's lock prefix (a key elsewhere is not this queue's lock); false, false otherwise.
-- A lock key of another type (not asynq's string) reads as no holder, not as a failed call.
-- Cost: O(1), two reads.
local function read_lock(ukey, lock_prefix)
  if ukey and string.sub(ukey, 1, #lock_prefix) == lock_prefix then
    local holder = redis.pcall('GET', ukey)
    if type(holder) == 'table' and holder.err then holder = false end
    return holder, redis.call('PTTL', ukey)
  end
  return false, false
end
