--[[
  One page of the tasks of one state of a queue, with everything a task row shows.

  KEYS[1] the state's structure: asynq:{<q>}:pending|active (list) or
          asynq:{<q>}:scheduled|retry|archived|completed|g:<group> (zset)
  KEYS[2] asynq:{<q>}:lease (read only for the active state)
  KEYS[3] asynq:queues (optional: on a single Redis, where it may be read with the queue's
          keys; a Cluster keeps it in another slot and asks SISMEMBER beside the script)
  ARGV[1] "list" or "zset"
  ARGV[2] start rank, ARGV[3] stop rank (0-based, inclusive, in asynq's listing order)
  ARGV[4] task-key prefix  asynq:{<q>}:t:
  ARGV[5] unique-lock prefix  asynq:{<q>}:unique:  (locks outside it are not read)
  ARGV[6] "1" to read each task's lease score (active state), else "0"
  ARGV[7] queue name (with KEYS[3])

  Returns -1 when KEYS[3] is given and the queue is not in it, else { total, rows } where each row is
    { id, msg, state, result, unique_key, lock holder, lock PTTL ms, score, lease score,
      pending_since, the TYPE of the task key when it is not a hash }
  (missing values are false). A task key, lock or lease of the wrong type spoils only its row;
  a state structure of the wrong type fails the call with WRONGTYPE (the caller names the key). Lists are returned oldest first, as asynq's inspector lists
  them: the list is read from the tail with negative ranks, then reversed.

  Cost: O(S + N) for a list (S = offset from the tail), O(log M + N) for a zset, plus O(1)
  per task for its hash, lock and lease: one round trip for a whole page, where asynq's
  inspector needs one for the queue check and one per page.
  @readonly  never writes: runs with EVALSHA_RO on Redis 7+, so CLIENT PAUSE WRITE does not hold it.
]]
-- @include read-lock
-- A registry of another type reads as the queue missing, as on a Cluster (SISMEMBER beside the script).
if KEYS[3] and redis.pcall('SISMEMBER', KEYS[3], ARGV[7]) ~= 1 then return -1 end
local kind = ARGV[1]
local start, stop = tonumber(ARGV[2]), tonumber(ARGV[3])
local taskPrefix, lockPrefix = ARGV[4], ARGV[5]
local total, ids, scores = 0, {}, {}
if kind == 'list' then
  total = redis.call('LLEN', KEYS[1])
  local raw = redis.call('LRANGE', KEYS[1], -(stop + 1), -(start + 1))
  for i = #raw, 1, -1 do ids[#ids + 1] = raw[i] end
else
  total = redis.call('ZCARD', KEYS[1])
  local raw = redis.call('ZRANGE', KEYS[1], start, stop, 'WITHSCORES')
  for i = 1, #raw, 2 do
    ids[#ids + 1] = raw[i]
    scores[#ids] = raw[i + 1]
  end
end
local rows = {}
for i, id in ipairs(ids) do
  local h = redis.pcall('HMGET', taskPrefix .. id, 'msg', 'state', 'result', 'unique_key', 'pending_since')
  local hashType = false
  if h.err then
    hashType = redis.call('TYPE', taskPrefix .. id)['ok']
    h = { false, false, false, false, false }
  end
  local ukey = h[4]
  local holder, pttl = read_lock(ukey, lockPrefix)
  local lease = false
  if ARGV[6] == '1' then
    lease = redis.pcall('ZSCORE', KEYS[2], id)
    if type(lease) == 'table' and lease.err then lease = false end
  end
  rows[i] = { id, h[1], h[2], h[3], ukey, holder, pttl, scores[i] or false, lease, h[5], hashType }
end
return { total, rows }
