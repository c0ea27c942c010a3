--[[
  Schedule a unique task (asynq's ScheduleUnique). The lock lasts from now until the
  process-at time plus the unique TTL; the caller computes that as ARGV[2].

  KEYS[1] asynq:{<q>}:unique:<type>:<md5 of payload>
  KEYS[2] asynq:{<q>}:t:<id>
  KEYS[3] asynq:{<q>}:scheduled
  ARGV[1] task id
  ARGV[2] lock TTL in whole seconds
  ARGV[3] process-at time, Unix seconds
  ARGV[4] encoded TaskMessage

  Returns: 1 scheduled | -1 duplicate task | 0 task ID conflict (the new lock is given back)
  Cost: O(log N).
]]
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2]) then return -1 end
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('DEL', KEYS[1])
  return 0
end
redis.call('HSET', KEYS[2], 'msg', ARGV[4], 'state', 'scheduled', 'unique_key', KEYS[1])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
return 1
