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
  ARGV[11] time budget, µs: once the tasks handled so far took this long, the call stops
           early and leaves the rest of its batch for the next call, so a call whose tasks
           turn out costlier than the last call's (the batch was sized on those) stays short

  Returns { moved, trimmed from the archive, remaining in the structure, elapsed µs, still due
  to be trimmed from the archive (the caller trims them with trim-archive.lua), failed id,
  code, ... } with the codes of move-tasks.lua for tasks left in place (their hash
  is missing or says another state; a delete removes an ID whose hash is gone). The elapsed
  time is the script's own (TIME at start and end), which the caller sizes the next batch by.
  moved + failed < batch with tasks remaining means the time budget stopped it.
  Order: zsets from the lowest score, the pending list from its tail (oldest first), so the
  tasks land in pending in the same order asynq's RunAll leaves them.
  Cost: one SORT ... GET reading the slice with its state (and, for a delete, its lock
  fields), then per task one HSET (run, archive) or nothing but a share of one DEL of the
  batch and, for a task holding a lock, the lock check (delete); where SORT cannot be used,
  one HGET or HMGET per task instead. The structures are written once per batch (LTRIM or
  ZREMRANGEBYRANK when every task of the slice moves, else LREM / ZREM; one LPUSH or ZADD of
  the batch), plus at most max(batch, 500) trimmed members. About 2 µs per task on a 200-byte
  msg; the caller keeps a call near 1 ms (lib/asynq/call-sizer.ts).
]]
-- @include msg-unique-key
-- @include archive-trim
-- Redis before 5 replicates a script verbatim and then refuses writes after TIME; this makes
-- it replicate the effects instead (the default, and a no-op, since Redis 5).
if redis.replicate_commands then pcall(redis.replicate_commands) end
local t0 = redis.call('TIME')
local src, action, state, prefix = KEYS[1], ARGV[1], ARGV[2], ARGV[3]
local now, cutoff, max_size, lock_prefix = ARGV[4], ARGV[5], tonumber(ARGV[6]), ARGV[7]
local batch, skip, group, budget = tonumber(ARGV[8]), tonumber(ARGV[9]), ARGV[10], tonumber(ARGV[11])
local function elapsed_us()
  local t = redis.call('TIME')
  return (t[1] - t0[1]) * 1000000 + (t[2] - t0[2])
end
local is_list = state == 'pending'
local task_prefix = prefix .. 't:'
local is_delete = action == 'delete'
-- The slice's IDs with the fields the action needs, read in one SORT ... BY nosort LIMIT
-- ... GET: Redis reads each hash field in C, which costs about half of a redis.call per task
-- (measured: a delete of 200,000 tasks 1.8-2.1 µs per task this way, 3.5-3.8 µs with one
-- HMGET per task). BY nosort walks a list from its tail with DESC (oldest first, the order
-- of the LRANGE below) and a zset by rank, as LIMIT skip batch asks. A pattern needs the
-- prefix free of SORT's '*'; a refusal (a cluster before Redis 7 or an ACL refusing GET
-- patterns) leaves the per-task reads below. A field that comes back missing is read again
-- by the task's own HMGET, so a hash of another type still fails the call as before.
local ids, states, ukeys, groups = {}, {}, {}, {}
local sorted = false
if not string.find(task_prefix, '*', 1, true) then
  local args = { src, 'BY', 'nosort' }
  if is_list then args[#args + 1] = 'DESC' end
  for _, a in ipairs({ 'LIMIT', skip, batch, 'GET', '#', 'GET', task_prefix .. '*->state' }) do args[#args + 1] = a end
  if is_delete then
    for _, a in ipairs({ 'GET', task_prefix .. '*->unique_key', 'GET', task_prefix .. '*->group' }) do args[#args + 1] = a end
  end
  local r = redis.pcall('SORT', unpack(args))
  if type(r) == 'table' and not r.err then
    local w = is_delete and 4 or 2
    for i = 1, #r, w do
      local j = #ids + 1
      ids[j], states[j] = r[i], r[i + 1]
      if is_delete then ukeys[j], groups[j] = r[i + 2], r[i + 3] end
    end
    sorted = true
  end
end
if not sorted and is_list then
  local raw = redis.call('LRANGE', src, -(skip + batch), -(skip + 1))
  for i = #raw, 1, -1 do ids[#ids + 1] = raw[i] end
elseif not sorted then
  ids = redis.call('ZRANGE', src, skip, skip + batch - 1)
end
local moved, failed = {}, {}
local gone = {}
local handled = 0
for i, id in ipairs(ids) do
  -- The clock every 16 tasks: under 0.1 µs a task, and at most 16 tasks (about 50 µs) past
  -- the budget.
  if i % 16 == 1 and i > 1 and elapsed_us() >= budget then break end
  handled = i
  local tk = task_prefix .. id
  local actual, ukey, grp = states[i], ukeys[i], groups[i]
  if not actual and is_delete then
    -- A delete reads the lock fields with the state, in the same HMGET.
    local h = redis.call('HMGET', tk, 'state', 'unique_key', 'group')
    actual, ukey, grp = h[1], h[2], h[3]
  elseif not actual then
    actual = redis.call('HGET', tk, 'state')
  end
  if actual == state or (not actual and is_delete) then
    moved[#moved + 1] = id
    if action == 'run' then
      redis.call('HSET', tk, 'state', 'pending')
    elseif action == 'archive' then
      redis.call('HSET', tk, 'state', 'archived')
    else
      -- Most tasks hold no lock: the call is skipped for them (about 0.3 µs a task).
      if grp or (ukey and ukey ~= '') then release_lock_from(tk, id, lock_prefix, ukey, grp) end
      gone[#gone + 1] = tk
    end
  else
    failed[#failed + 1] = id
    failed[#failed + 1] = actual and -4 or 0
  end
end
if #gone > 0 then redis.call('DEL', unpack(gone)) end
if #moved > 0 then
  -- Off the source: the whole slice at once when every task of it moves (the usual case;
  -- for the list only while no earlier task was left at its tail, as LTRIM keeps the head),
  -- else one by one (LREM from the tail, where the slice is).
  if #moved == handled and is_list and skip == 0 then
    redis.call('LTRIM', src, 0, -(handled + 1))
  elseif #moved == handled and not is_list then
    redis.call('ZREMRANGEBYRANK', src, skip, skip + handled - 1)
  else
    for _, id in ipairs(moved) do
      if is_list then redis.call('LREM', src, -1, id) else redis.call('ZREM', src, id) end
    end
  end
  if action == 'run' then
    redis.call('LPUSH', KEYS[2], unpack(moved))
  elseif action == 'archive' then
    local args = {}
    for _, id in ipairs(moved) do
      args[#args + 1] = now
      args[#args + 1] = id
    end
    redis.call('ZADD', KEYS[3], unpack(args))
  end
end
if state == 'aggregating' and redis.call('ZCARD', src) == 0 then redis.call('SREM', KEYS[4], group) end
local trimmed, due = 0, 0
if action == 'archive' and #moved > 0 then trimmed, due = trim_archive(KEYS[3], prefix .. 't:', cutoff, max_size, math.max(batch, 500)) end
local remaining = is_list and redis.call('LLEN', src) or redis.call('ZCARD', src)
local out = { #moved, trimmed, remaining, elapsed_us(), due }
for _, v in ipairs(failed) do out[#out + 1] = v end
return out
