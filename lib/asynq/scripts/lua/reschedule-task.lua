--[[
  Move a scheduled or retry task to another time: its score in the zset its state names, and
  nothing else. asynq has no such operation; its forwarder reads only that score (it moves a
  task to pending once the score has passed), and the task hash holds no process time, so
  the hash is left exactly as it is. ZADD XX: a task that left the set meanwhile is never
  added back.

  KEYS[1] asynq:{<q>}:t:<id>
  ARGV[1] task id
  ARGV[2] queue-key prefix   asynq:{<q>}:
  ARGV[3] new score: Unix seconds

  Returns: { 1, state } moved | { 0 } task not found | { -1, state } not scheduled or retry |
           { -2, state } not in the set its state names
  Cost: O(log N) for the ZSCORE and the ZADD on the state's zset; one round trip.
]]
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return { 0 } end
if state ~= 'scheduled' and state ~= 'retry' then return { -1, state } end
local zset = ARGV[2] .. state
if not redis.call('ZSCORE', zset, ARGV[1]) then return { -2, state } end
redis.call('ZADD', zset, 'XX', ARGV[3], ARGV[1])
return { 1, state }
