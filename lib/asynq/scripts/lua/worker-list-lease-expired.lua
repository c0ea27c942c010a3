--[[
  Messages of active tasks whose lease ran out before a cutoff (asynq's ListLeaseExpired):
  their server stopped extending the lease, so it is presumed dead.

  KEYS[1] asynq:{<q>}:lease
  ARGV[1] cutoff, Unix seconds (the recoverer passes now - 30 s, for clock skew)
  ARGV[2] task-key prefix  asynq:{<q>}:t:

  Returns: encoded TaskMessages; IDs whose hash is gone are skipped, as asynq does.
  Cost: O(log N + M) for M expired leases.
  @readonly  never writes: runs with EVALSHA_RO on Redis 7+, so CLIENT PAUSE WRITE does not hold it.
]]
local res = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])) do
  local msg = redis.call('HGET', ARGV[2] .. id, 'msg')
  if msg then res[#res + 1] = msg end
end
return res
