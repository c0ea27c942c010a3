-- The holder and PTTL (ms) of the unique lock `ukey`, read only when the key sits under this
-- queue's lock prefix (a key elsewhere is not this queue's lock); false, false otherwise.
-- Cost: O(1), two reads.
local function read_lock(ukey, lock_prefix)
  if ukey and string.sub(ukey, 1, #lock_prefix) == lock_prefix then
    return redis.call('GET', ukey), redis.call('PTTL', ukey)
  end
  return false, false
end
