--[[
  Add a unique task to an aggregation group (asynq's AddToGroupUnique). Like asynq, the hash
  gets no unique_key field; the lock key is in the msg.

  KEYS[1] asynq:{<q>}:t:<id>
  KEYS[2] asynq:{<q>}:g:<group>
  KEYS[3] asynq:{<q>}:groups
  KEYS[4] asynq:{<q>}:unique:<type>:<md5 of payload>
  ARGV[1] encoded TaskMessage
  ARGV[2] task id
  ARGV[3] now, Unix seconds
  ARGV[4] group name
  ARGV[5] lock TTL in whole seconds

  Returns: 1 added | -1 duplicate task | 0 task ID conflict (the new lock is given back)
  Cost: O(log N).
]]
if not redis.call('SET', KEYS[4], ARGV[2], 'NX', 'EX', ARGV[5]) then return -1 end
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('DEL', KEYS[4])
  return 0
end
redis.call('HSET', KEYS[1], 'msg', ARGV[1], 'state', 'aggregating', 'group', ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[4])
return 1
