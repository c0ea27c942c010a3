--[[
  Delete an archived task that stands in the way of an enqueue, then enqueue, in one step:
  what asynq's Inspector.DeleteTask followed by Client.Enqueue leaves, without the moment in
  between where another client could take the ID or the lock. The archived task stands in the
  way when the new task takes its ID (ErrTaskIDConflict) or when it holds the unique lock the
  new task needs (ErrDuplicateTask). Nothing is written unless every check passes, so a task
  that changed state since the operator saw it is left as it is and reported.

  KEYS[1] asynq:{<q>}:t:<archived id>
  KEYS[2] asynq:{<q>}:archived
  KEYS[3] asynq:{<q>}:t:<new id>
  KEYS[4] asynq:{<q>}:unique:<type>:<md5 of payload>  (read only when ARGV[6] > 0)
  KEYS[5] where the new task goes: asynq:{<q>}:pending | :scheduled | :g:<group>
  KEYS[6] asynq:{<q>}:groups
  ARGV[1] archived task id
  ARGV[2] new task id
  ARGV[3] encoded TaskMessage of the new task
  ARGV[4] new state: pending | scheduled | aggregating
  ARGV[5] pending: now in Unix nanoseconds (pending_since); scheduled: process_at, Unix
          seconds; aggregating: now, Unix seconds (the group score)
  ARGV[6] lock TTL in whole seconds (0: the new task is not unique)
  ARGV[7] group name ('' unless aggregating)
  ARGV[8] unique-lock prefix  asynq:{<q>}:unique:

  Returns { code, detail }, codes:
    1 replaced and enqueued
    -10 the archived task is gone                       (detail false)
    -11 the task is no longer archived                  (detail: its state now)
    -12 it is not in the way: the new ID differs and the lock is not held by it
                                                        (detail: the lock's holder, or false)
    -1 the lock is held by another task (duplicate)     (detail: the holder)
    0 the new ID is taken by another task (ID conflict) (detail: that task's state, or false)
    -5 the task says archived but is not in the archived set (detail 'archived')
  Cost: O(log N): one ZREM, one ZADD or LPUSH, a few O(1) reads and writes (plus a scan of
  the archived msg when its lock is named only there, as for grouped tasks).
]]
-- @include msg-unique-key
local aid, nid = ARGV[1], ARGV[2]
local ttl = tonumber(ARGV[6])
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return { -10, false } end
if state ~= 'archived' then return { -11, state } end
local holder = false
if ttl > 0 then holder = redis.call('GET', KEYS[4]) end
if aid ~= nid then
  if holder ~= aid then return { -12, holder } end
  if redis.call('EXISTS', KEYS[3]) == 1 then return { 0, redis.call('HGET', KEYS[3], 'state') } end
elseif holder and holder ~= aid then
  return { -1, holder }
end
-- Inspector.DeleteTask of an archived task: out of the archived set, its own lock released,
-- its hash deleted.
if redis.call('ZREM', KEYS[2], aid) == 0 then return { -5, state } end
release_lock_if_owned(KEYS[1], aid, ARGV[8])
if holder == aid then redis.call('DEL', KEYS[4]) end
redis.call('DEL', KEYS[1])
-- Client.Enqueue, as enqueue / schedule / add-to-group (and their unique forms) write it; the
-- lock is free now (checked above), so SET NX cannot fail.
local mode, score = ARGV[4], ARGV[5]
if ttl > 0 then redis.call('SET', KEYS[4], nid, 'NX', 'EX', ttl) end
if mode == 'pending' then
  if ttl > 0 then
    redis.call('HSET', KEYS[3], 'msg', ARGV[3], 'state', 'pending', 'pending_since', score, 'unique_key', KEYS[4])
  else
    redis.call('HSET', KEYS[3], 'msg', ARGV[3], 'state', 'pending', 'pending_since', score)
  end
  redis.call('LPUSH', KEYS[5], nid)
elseif mode == 'scheduled' then
  if ttl > 0 then
    redis.call('HSET', KEYS[3], 'msg', ARGV[3], 'state', 'scheduled', 'unique_key', KEYS[4])
  else
    redis.call('HSET', KEYS[3], 'msg', ARGV[3], 'state', 'scheduled')
  end
  redis.call('ZADD', KEYS[5], score, nid)
else
  -- Like asynq's AddToGroupUnique, the hash of a grouped task gets no unique_key field.
  redis.call('HSET', KEYS[3], 'msg', ARGV[3], 'state', 'aggregating', 'group', ARGV[7])
  redis.call('ZADD', KEYS[5], score, nid)
  redis.call('SADD', KEYS[6], ARGV[7])
end
return { 1, false }
