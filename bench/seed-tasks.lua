--[[
  Creates `count` asynq tasks of one queue and one state inside Redis (benchmark seeding).
  The caller encodes the constant parts of the protobuf TaskMessage once; only the ID differs
  per task, so each msg is  prefix .. field 3 (tag 0x1a, varint length, id bytes) .. suffix,
  the same bytes protobuf-go and encodeTaskMessage write (fields in ascending number order).

  KEYS[1] the state's structure: asynq:{<q>}:pending (list) or :scheduled|retry|archived (zset)
  KEYS[2] asynq:queues
  ARGV[1] msg prefix: fields 1-2 (type, payload)
  ARGV[2] msg suffix: fields 4+ (queue, retry, timeout, ...)
  ARGV[3] task-key prefix  asynq:{<q>}:t:
  ARGV[4] ID format for string.format with one integer, e.g. 'b1000000-0000-4000-8000-%012d'
  ARGV[5] first index, ARGV[6] count
  ARGV[7] state: pending | scheduled | retry | archived
  ARGV[8] pending: pending_since (Unix ns, decimal); zset states: the base score (Unix s),
          task i gets base + i so the zset order matches the index order
  ARGV[9] queue name

  Writes what asynq's enqueue (or its retry/archive scripts) leave behind: the task hash
  (msg, state, and pending_since for pending), the ID in the state's list or zset (LPUSH, so
  the lowest index is the oldest task), and the queue name in asynq:queues.
  Cost: O(count), about 5 µs per task (one HSET plus one LPUSH or ZADD). The caller keeps
  count small enough that one call blocks Redis for well under 50 ms.
]]
local function varint(n)
  local out = ''
  while n >= 128 do
    out = out .. string.char(n % 128 + 128)
    n = math.floor(n / 128)
  end
  return out .. string.char(n)
end

local prefix, suffix, taskPrefix, idFormat = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local first, count = tonumber(ARGV[5]), tonumber(ARGV[6])
local state, stamp = ARGV[7], ARGV[8]
for i = first, first + count - 1 do
  local id = string.format(idFormat, i)
  local msg = prefix .. '\26' .. varint(#id) .. id .. suffix
  if state == 'pending' then
    redis.call('HSET', taskPrefix .. id, 'msg', msg, 'state', state, 'pending_since', stamp)
    redis.call('LPUSH', KEYS[1], id)
  else
    redis.call('HSET', taskPrefix .. id, 'msg', msg, 'state', state)
    redis.call('ZADD', KEYS[1], tonumber(stamp) + i, id)
  end
end
redis.call('SADD', KEYS[2], ARGV[9])
return count
