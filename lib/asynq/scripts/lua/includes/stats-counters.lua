-- asynq's processed/failed counters. A daily key gets its expiry on the day's first increment
-- (asynq: that moment + 90 days); an all-time key that reaches MaxInt64 starts again at 1
-- (compared as a double, as asynq does). Retry and archive move both totals together, reset
-- together when `processed` is at the maximum. Cost: O(1).
local function incr_daily(key, expire_at)
  if redis.call('INCR', key) == 1 then redis.call('EXPIREAT', key, expire_at) end
end

local function incr_total(key, max)
  if tonumber(redis.call('GET', key)) == tonumber(max) then
    redis.call('SET', key, 1)
  else
    redis.call('INCR', key)
  end
end

local function incr_totals(processed_key, failed_key, max)
  if tonumber(redis.call('GET', processed_key)) == tonumber(max) then
    redis.call('SET', processed_key, 1)
    redis.call('SET', failed_key, 1)
  else
    redis.call('INCR', processed_key)
    redis.call('INCR', failed_key)
  end
end
