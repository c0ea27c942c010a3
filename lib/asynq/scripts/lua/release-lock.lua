--[[
  Delete a unique lock, but only while it is still held by the task the caller judged, and
  only when that task can no longer need it (gone, completed or archived). Checking and
  deleting in one script means a lock that changed owner in between is never deleted.

  KEYS[1] asynq:{<q>}:unique:<type>:<md5>
  KEYS[2] asynq:{<q>}:t:<holder id>
  ARGV[1] holder id the caller expects

  Returns { code, current holder, holder state }, codes:
    1 deleted | 0 lock not found | -1 held by another task now | -2 holder still pending,
    scheduled, retry, active or aggregating (nothing deleted)
  Cost: O(1).
]]
local holder = redis.call('GET', KEYS[1])
if not holder then return { 0, false, false } end
if holder ~= ARGV[1] then return { -1, holder, false } end
local state = redis.call('HGET', KEYS[2], 'state')
if state == 'pending' or state == 'scheduled' or state == 'retry' or state == 'active' or state == 'aggregating' then
  return { -2, holder, state }
end
redis.call('DEL', KEYS[1])
return { 1, holder, state }
