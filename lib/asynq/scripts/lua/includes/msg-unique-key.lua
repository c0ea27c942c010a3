-- Reads field 10 (unique_key) of an encoded TaskMessage without a protobuf library, for the
-- grouped unique tasks whose hash has no unique_key field. Returns '' when absent or when the
-- bytes do not parse. Cost: O(length of msg).
local function msg_unique_key(msg)
  if not msg then return '' end
  local pos, n = 1, #msg
  local function varint()
    local result, scale = 0, 1
    while pos <= n do
      local b = string.byte(msg, pos)
      pos = pos + 1
      result = result + (b % 128) * scale
      if b < 128 then return result end
      scale = scale * 128
    end
    return nil
  end
  while pos <= n do
    local tag = varint()
    if not tag then return '' end
    local field, wire = math.floor(tag / 8), tag % 8
    -- protobuf-go writes fields in ascending order: past field 10 there is no unique_key.
    if field > 10 then return '' end
    if wire == 0 then
      if not varint() then return '' end
    elseif wire == 2 then
      local len = varint()
      if not len or pos + len - 1 > n then return '' end
      if field == 10 then return string.sub(msg, pos, pos + len - 1) end
      pos = pos + len
    elseif wire == 1 then pos = pos + 8
    elseif wire == 5 then pos = pos + 4
    else return '' end
  end
  return ''
end

-- Deletes a task's unique lock only while it still holds this task's ID, the rule every asynq
-- release follows, from the hash's unique_key and group fields already read (HMGET). The key
-- is taken from the hash, else from the msg, and must sit under this queue's lock prefix.
-- Cost: O(1) plus, for a grouped task only, the msg scan.
local function release_lock_from(task_key, id, lock_prefix, ukey, group)
  -- Only grouped tasks lack the hash field (AddToGroupUnique does not write it): read the msg
  -- for those alone, which keeps bulk deletes of plain tasks cheap.
  if (not ukey or ukey == '') and group then ukey = msg_unique_key(redis.call('HGET', task_key, 'msg')) end
  if not ukey then ukey = '' end
  if ukey ~= '' and string.sub(ukey, 1, #lock_prefix) == lock_prefix and redis.call('GET', ukey) == id then
    redis.call('DEL', ukey)
    return 1
  end
  return 0
end

-- The same, reading the two fields first (one HMGET).
local function release_lock_if_owned(task_key, id, lock_prefix)
  local h = redis.call('HMGET', task_key, 'unique_key', 'group')
  return release_lock_from(task_key, id, lock_prefix, h[1], h[2])
end
