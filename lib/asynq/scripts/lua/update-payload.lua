--[[
  Replace the msg of a scheduled task (asynq 0.26's UpdateTaskPayload), only if the msg is
  still the one the caller read, so an update never overwrites a concurrent change.

  KEYS[1] asynq:{<q>}:t:<id>
  ARGV[1] new encoded TaskMessage
  ARGV[2] the encoded TaskMessage the new one was built from

  Returns: 1 updated | 0 task not found | -1 not in scheduled state | -2 msg changed meanwhile
  Cost: O(1).
]]
local h = redis.call('HMGET', KEYS[1], 'state', 'msg')
if not h[1] then return 0 end
if h[1] ~= 'scheduled' then return -1 end
if h[2] ~= ARGV[2] then return -2 end
redis.call('HSET', KEYS[1], 'msg', ARGV[1])
return 1
