--[[
  Run, archive or delete the given tasks (at most 500 per call), each atomically moved
  between its structures so no task is ever left in two sets or in none.

  KEYS[1] asynq:{<q>}:pending
  KEYS[2] asynq:{<q>}:archived
  KEYS[3] asynq:{<q>}:groups
  ARGV[1] action: run | archive | delete
  ARGV[2] required state, or '' for any (a bulk action on one state skips tasks that left it)
  ARGV[3] queue-key prefix  asynq:{<q>}:
  ARGV[4] now, Unix seconds
  ARGV[5] archive cutoff (now - 90 days), Unix seconds
  ARGV[6] archive size limit (10000: asynq keeps the newest 9 999)
  ARGV[7] unique-lock prefix  asynq:{<q>}:unique:
  ARGV[8] time budget, µs: once the tasks handled so far took this long (the clock is read
          after each task: one pending task may cost a walk of a long list) the call stops early and leaves the rest of the IDs untouched, so a
          call whose tasks turn out costlier than the last call's (a pending task deep in a
          long list) stays short
  ARGV[9..] task ids

  Returns { code per id handled..., number trimmed from the archive, number still due to be
  trimmed, elapsed µs }: fewer codes than IDs means the time budget stopped the call and the
  caller sends the rest again; a number still due is trimmed by the caller with
  trim-archive.lua. The elapsed time is the script's own (TIME at start and end), which the
  caller sizes the next call by. Codes:
    1 done | 0 task not found | -1 task is active | -2 already pending (run)
    -3 already archived (archive) | -4 not in the required state | -5 not in its state's set
  Semantics follow asynq's RunTask / ArchiveTask / DeleteTask (state, lists, groups; run does
  not write pending_since; archive does not rewrite msg). Delete also releases a lock named
  only in the msg, and archive trimming deletes trimmed hashes (asynq's inspector leaks both).
  Cost: O(1) per zset/group task; O(distance from the tail) per pending task (LREM from the
  tail, where the oldest, first-listed tasks are); plus at most 500 trimmed members; one TIME
  per task (about 0.3 µs).
]]
-- @include msg-unique-key
-- @include archive-trim
-- Redis before 5 replicates a script verbatim and then refuses writes after TIME; this makes
-- it replicate the effects instead (the default, and a no-op, since Redis 5).
if redis.replicate_commands then pcall(redis.replicate_commands) end
local t0 = redis.call('TIME')
local function elapsed_us()
  local t = redis.call('TIME')
  return (t[1] - t0[1]) * 1000000 + (t[2] - t0[2])
end
local budget = tonumber(ARGV[8])
local action, want, prefix = ARGV[1], ARGV[2], ARGV[3]
local now, cutoff, max_size, lock_prefix = ARGV[4], ARGV[5], tonumber(ARGV[6]), ARGV[7]
local codes, archived = {}, 0

local function remove_from_source(id, state, tk)
  if state == 'pending' then
    return redis.call('LREM', KEYS[1], -1, id) > 0
  elseif state == 'aggregating' then
    local group = redis.call('HGET', tk, 'group')
    if not group then return false end
    local gkey = prefix .. 'g:' .. group
    if redis.call('ZREM', gkey, id) == 0 then return false end
    if redis.call('ZCARD', gkey) == 0 then redis.call('SREM', KEYS[3], group) end
    return true
  end
  return redis.call('ZREM', prefix .. state, id) > 0
end

for i = 9, #ARGV do
  if i > 9 and elapsed_us() >= budget then break end
  local id = ARGV[i]
  local tk = prefix .. 't:' .. id
  local state = redis.call('HGET', tk, 'state')
  local code
  if not state then code = 0
  elseif want ~= '' and state ~= want then code = -4
  elseif state == 'active' then code = -1
  elseif action == 'run' and state == 'pending' then code = -2
  elseif action == 'archive' and state == 'archived' then code = -3
  elseif action == 'delete' then
    -- The lock is read before the hash goes; the source is checked first so nothing changes
    -- for a task that is not where its state says.
    if not remove_from_source(id, state, tk) then code = -5 else
      release_lock_if_owned(tk, id, lock_prefix)
      redis.call('DEL', tk)
      code = 1
    end
  elseif not remove_from_source(id, state, tk) then code = -5
  elseif action == 'run' then
    redis.call('LPUSH', KEYS[1], id)
    redis.call('HSET', tk, 'state', 'pending')
    code = 1
  else
    redis.call('ZADD', KEYS[2], now, id)
    redis.call('HSET', tk, 'state', 'archived')
    archived = archived + 1
    code = 1
  end
  codes[#codes + 1] = code
end
local trimmed, due = 0, 0
if archived > 0 then trimmed, due = trim_archive(KEYS[2], prefix .. 't:', cutoff, max_size, 500) end
codes[#codes + 1] = trimmed
codes[#codes + 1] = due
codes[#codes + 1] = elapsed_us()
return codes
