--[[
  Decide whether a group is ready to aggregate and, if so, move its tasks into a new
  aggregation set (asynq's AggregationCheck). Ready when the group reached maxSize, or its
  oldest task waited maxDelay, or no task joined for the grace period.

  KEYS[1] asynq:{<q>}:g:<group>
  KEYS[2] asynq:{<q>}:g:<group>:<setID>   (the new set; setID is a fresh UUID)
  KEYS[3] asynq:{<q>}:aggregation_sets
  KEYS[4] asynq:{<q>}:groups
  ARGV[1] max group size (0 = no size trigger)
  ARGV[2] max delay, whole seconds (0 = no delay trigger)
  ARGV[3] grace period, whole seconds
  ARGV[4] set deadline, Unix seconds (now + 2 min; the recoverer reclaims the set after it)
  ARGV[5] check time, Unix seconds
  ARGV[6] group name

  Returns: 1 set created | 0 not ready (or the group is empty)
  At most maxSize tasks (all when 0), oldest first, move with their scores. The group's name
  leaves asynq:{<q>}:groups when the move empties it.
  Cost: O(log N + M) for M moved tasks.
]]
local size = redis.call('ZCARD', KEYS[1])
if size == 0 then return 0 end
local max_size = tonumber(ARGV[1])
local now = tonumber(ARGV[5])

local function move()
  local res = redis.call('ZRANGE', KEYS[1], 0, max_size - 1, 'WITHSCORES')
  for i = 1, #res - 1, 2 do
    redis.call('ZADD', KEYS[2], tonumber(res[i + 1]), res[i])
  end
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, max_size - 1)
  redis.call('ZADD', KEYS[3], ARGV[4], KEYS[2])
  if max_size == 0 or size <= max_size then redis.call('SREM', KEYS[4], ARGV[6]) end
  return 1
end

if max_size ~= 0 and size >= max_size then return move() end
local max_delay = tonumber(ARGV[2])
if max_delay ~= 0 then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  if tonumber(oldest[2]) <= now - max_delay then return move() end
end
local newest = redis.call('ZREVRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if tonumber(newest[2]) <= now - tonumber(ARGV[3]) then return move() end
return 0
