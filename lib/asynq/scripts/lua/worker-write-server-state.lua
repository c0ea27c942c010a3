--[[
  Write one server heartbeat record: its ServerInfo and the WorkerInfo of every task it is
  processing (asynq's WriteServerState; the caller ZADDs both keys into asynq:servers and
  asynq:workers first, keys in other cluster slots).

  KEYS[1] asynq:servers:{<host>:<pid>:<serverID>}
  KEYS[2] asynq:workers:{<host>:<pid>:<serverID>}
  ARGV[1] TTL, whole seconds (2 x heartbeat interval)
  ARGV[2] encoded ServerInfo
  ARGV[3..] task id, encoded WorkerInfo, task id, encoded WorkerInfo, ...

  Returns: 1
  The workers hash is rebuilt from scratch each beat so finished tasks drop out.
  Cost: O(W) for W in-flight tasks.
]]
redis.call('SETEX', KEYS[1], ARGV[1], ARGV[2])
redis.call('DEL', KEYS[2])
for i = 3, #ARGV - 1, 2 do
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
end
redis.call('EXPIRE', KEYS[2], ARGV[1])
return 1
