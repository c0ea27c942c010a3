--[[
  Read a slice of a state's task IDs with each task's msg: the fallback of the scans' slice
  reader (task-source/slices.ts) for a Redis without SORT_RO (before 7.0), an ACL that refuses
  SORT_RO's GET patterns, or a queue whose name holds a `*` (which SORT's GET pattern would
  take for its placeholder). Read-only.

  KEYS[1] the state's structure: asynq:{<q>}:pending or active (list) or a zset (scheduled,
          retry, archived, completed, or a group asynq:{<q>}:g:<g>)
  ARGV[1] list | zset
  ARGV[2] offset: tasks to skip (a list is read from its tail, oldest first; a zset by rank)
  ARGV[3] at most this many tasks (≤ 500)
  ARGV[4] task-key prefix  asynq:{<q>}:t:

  Returns { id 1, msg 1, id 2, msg 2, ... }, a missing msg being false; fewer tasks than asked
  means the structure ends there.
  Cost: O(log N + n) for a zset, O(distance from the nearer end + n) for a list; about 5 µs per
  task (SORT_RO does the same in about 1 µs); at most 500 per call keeps it near 2.5 ms.
  @readonly  never writes: runs with EVALSHA_RO on Redis 7+, so CLIENT PAUSE WRITE does not hold it.
]]
local kind, offset, n, prefix = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local ids
if kind == 'list' then
  ids = redis.call('LRANGE', KEYS[1], -(offset + n), -(offset + 1))
else
  ids = redis.call('ZRANGE', KEYS[1], offset, offset + n - 1)
end
local out = {}
local first, last, step = 1, #ids, 1
-- A list holds the newest task at its head: walk it backwards so the oldest comes first.
if kind == 'list' then first, last, step = #ids, 1, -1 end
for i = first, last, step do
  out[#out + 1] = ids[i]
  -- A task key of another type than a hash reads as a task without msg (flagged, not failed).
  local msg = redis.pcall('HGET', prefix .. ids[i], 'msg')
  if type(msg) == 'table' and msg.err then msg = false end
  out[#out + 1] = msg
end
return out
