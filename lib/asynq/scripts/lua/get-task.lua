--[[
  Everything the inspector shows about one task.

  KEYS[1] asynq:{<q>}:t:<id>
  KEYS[2] asynq:{<q>}:lease
  KEYS[3] asynq:queues (optional: on a single Redis, where it may be read with the queue's
          keys; a Cluster keeps it in another slot and asks SISMEMBER beside the script)
  ARGV[1] task id
  ARGV[2] queue-key prefix    asynq:{<q>}:
  ARGV[3] unique-lock prefix  asynq:{<q>}:unique:
  ARGV[4] queue name (with KEYS[3])

  Returns -1 when KEYS[3] is given and the queue is not in it, 0 when the task hash does not
  exist, else
    { msg, state, result, unique_key, pending_since, group,
      lock holder, lock PTTL ms, score in the state's zset, lease score,
      the TYPE of the task key when it is not a hash }
  (missing values are false).

  Cost: O(1) plus O(log N) for the two ZSCOREs: one round trip, one command on a single Redis.
  @readonly  never writes: runs with EVALSHA_RO on Redis 7+, so CLIENT PAUSE WRITE does not hold it.
]]
-- @include read-lock
-- A registry of another type reads as the queue missing, as on a Cluster (SISMEMBER beside the script).
if KEYS[3] and redis.pcall('SISMEMBER', KEYS[3], ARGV[4]) ~= 1 then return -1 end
local h = redis.pcall('HMGET', KEYS[1], 'msg', 'state', 'result', 'unique_key', 'pending_since', 'group')
if h.err then
  -- The task key holds another type than asynq's hash: say which, read nothing else.
  return { false, false, false, false, false, false, false, false, false, false, redis.call('TYPE', KEYS[1])['ok'] }
end
if not h[1] and not h[2] then
  if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
end
local id, prefix, lockPrefix = ARGV[1], ARGV[2], ARGV[3]
local ukey = h[4]
local holder, pttl = read_lock(ukey, lockPrefix)
-- A state zset or the lease of another type reads as no score rather than failing the read.
local function zscore(key)
  local r = redis.pcall('ZSCORE', key, id)
  if type(r) == 'table' and r.err then return false end
  return r
end
local score = false
local state = h[2]
if state == 'scheduled' or state == 'retry' or state == 'archived' or state == 'completed' then
  score = zscore(prefix .. state)
elseif state == 'aggregating' and h[6] then
  score = zscore(prefix .. 'g:' .. h[6])
end
local lease = false
if state == 'active' then lease = zscore(KEYS[2]) end
return { h[1], h[2], h[3], ukey, h[5], h[6], holder, pttl, score, lease, false }
