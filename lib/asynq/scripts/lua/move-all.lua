--[[
  Run, archive or delete the next batch of tasks of one state (asynq's RunAll*, ArchiveAll*,
  DeleteAll*, done a batch per call instead of one unbounded script over the whole set).

  KEYS[1] the state's structure: asynq:{<q>}:pending (list) or a zset (scheduled, retry,
          archived, completed, g:<group>)
  KEYS[2] asynq:{<q>}:pending
  KEYS[3] asynq:{<q>}:archived
  KEYS[4] asynq:{<q>}:groups
  ARGV[1] action: run | archive | delete
  ARGV[2] the state
  ARGV[3] queue-key prefix  asynq:{<q>}:
  ARGV[4] now, Unix seconds
  ARGV[5] archive cutoff, Unix seconds
  ARGV[6] archive size limit (10000)
  ARGV[7] unique-lock prefix
  ARGV[8] batch size (at most 500)
  ARGV[9] skip: how many members at the front of the structure earlier calls left in place
  ARGV[10] group name (aggregating only)

  Returns { moved, trimmed from the archive, remaining in the structure, failed id, code, ... }
  with the codes of move-tasks.lua for tasks left in place (their hash is missing or says
  another state; a delete removes an ID whose hash is gone).
  Order: zsets from the lowest score, the pending list from its tail (oldest first), so the
  tasks land in pending in the same order asynq's RunAll leaves them.
  Cost: O(batch) plus O(log N) per zset member and at most 500 trimmed members.
]]
-- @include msg-unique-key
-- @include archive-trim
local src, action, state, prefix = KEYS[1], ARGV[1], ARGV[2], ARGV[3]
local now, cutoff, max_size, lock_prefix = ARGV[4], ARGV[5], tonumber(ARGV[6]), ARGV[7]
local batch, skip, group = tonumber(ARGV[8]), tonumber(ARGV[9]), ARGV[10]
local is_list = state == 'pending'
local ids = {}
if is_list then
  local raw = redis.call('LRANGE', src, -(skip + batch), -(skip + 1))
  for i = #raw, 1, -1 do ids[#ids + 1] = raw[i] end
else
  ids = redis.call('ZRANGE', src, skip, skip + batch - 1)
end
local moved, archived, failed = 0, 0, {}
for _, id in ipairs(ids) do
  local tk = prefix .. 't:' .. id
  local actual = redis.call('HGET', tk, 'state')
  if actual == state or (not actual and action == 'delete') then
    if is_list then redis.call('LREM', src, -1, id) else redis.call('ZREM', src, id) end
    if action == 'run' then
      redis.call('LPUSH', KEYS[2], id)
      redis.call('HSET', tk, 'state', 'pending')
    elseif action == 'archive' then
      redis.call('ZADD', KEYS[3], now, id)
      redis.call('HSET', tk, 'state', 'archived')
      archived = archived + 1
    else
      release_lock_if_owned(tk, id, lock_prefix)
      redis.call('DEL', tk)
    end
    moved = moved + 1
  else
    failed[#failed + 1] = id
    failed[#failed + 1] = actual and -4 or 0
  end
end
if state == 'aggregating' and redis.call('ZCARD', src) == 0 then redis.call('SREM', KEYS[4], group) end
local trimmed = 0
if archived > 0 then trimmed = trim_archive(KEYS[3], prefix .. 't:', cutoff, max_size, 500) end
local remaining = is_list and redis.call('LLEN', src) or redis.call('ZCARD', src)
local out = { moved, trimmed, remaining }
for _, v in ipairs(failed) do out[#out + 1] = v end
return out
