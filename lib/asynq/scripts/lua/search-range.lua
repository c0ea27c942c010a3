--[[
  The raw msgs of a rank range of one state structure, for the search scanner, which filters
  them in Node. Reads nothing else: the few matches are read in full afterwards.

  KEYS[1] the state's structure: asynq:{<q>}:pending|active (list) or
          asynq:{<q>}:scheduled|retry|archived|completed|g:<group> (zset)
  ARGV[1] "list" or "zset"
  ARGV[2] start rank (0-based, in asynq's listing order: lists oldest first, zsets by score)
  ARGV[3] count: at most this many tasks
  ARGV[4] task-key prefix  asynq:{<q>}:t:
  ARGV[5] byte cap: stop after the task whose msg takes the reply past this many bytes
          (at least one task is always returned), so a range of large payloads cannot make
          one call slow
  ARGV[6] time budget, µs: once the tasks read so far took this long the call stops early
          (the clock is read every 16 tasks), so a call whose tasks turn out costlier than
          the last call's (the count was sized on those) stays short

  Returns a flat array { elapsed µs, cut, id1, msg1, score1, id2, msg2, score2, ... } in
  listing order; msg is false when the task hash has no msg (or is gone), score is false for
  lists. cut is 1 when the byte cap or the time budget stopped the call before `count` tasks,
  else 0: fewer than `count` tasks with cut 0 means the structure ended. Either way the caller
  resumes at start + (number returned). The elapsed time is the script's own (TIME at start
  and end), so the caller can size the next call by what Redis spent, whatever the network.

  Cost: O(S + N) for a list (S = distance from the tail), O(log M + N) for a zset, plus one
  HGET per task: about 2-3 µs per task. Read only. The caller keeps N ≤ 1,000.
  @readonly  never writes: runs with EVALSHA_RO on Redis 7+, so CLIENT PAUSE WRITE does not hold it.
]]
local t0 = redis.call('TIME')
local kind, start, count = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local taskPrefix, cap, budget = ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6])
local ids, scores = {}, {}
if kind == 'list' then
  local raw = redis.call('LRANGE', KEYS[1], -(start + count), -(start + 1))
  for i = #raw, 1, -1 do ids[#ids + 1] = raw[i] end
else
  local raw = redis.call('ZRANGE', KEYS[1], start, start + count - 1, 'WITHSCORES')
  for i = 1, #raw, 2 do
    ids[#ids + 1] = raw[i]
    scores[#ids] = raw[i + 1]
  end
end
local function elapsed_us()
  local t = redis.call('TIME')
  return (t[1] - t0[1]) * 1000000 + (t[2] - t0[2])
end
local out, bytes, cut = { 0, 0 }, 0, 0
for i, id in ipairs(ids) do
  if i % 16 == 1 and i > 1 and elapsed_us() >= budget then
    cut = 1
    break
  end
  -- A task key of another type than a hash reads as a task without msg (flagged, not failed).
  local msg = redis.pcall('HGET', taskPrefix .. id, 'msg')
  if type(msg) == 'table' and msg.err then msg = false end
  out[#out + 1] = id
  out[#out + 1] = msg
  out[#out + 1] = scores[i] or false
  if msg then bytes = bytes + #msg end
  if bytes >= cap then
    cut = i < #ids and 1 or 0
    break
  end
end
out[1], out[2] = elapsed_us(), cut
return out
