--[[
  Enqueue tasks to run now (asynq's Enqueue), each as asynq's enqueue script writes it: the
  client joins the plain enqueues of one queue issued in one event-loop tick into one call
  (client/enqueue-batch.ts), as does batchEnqueue; a single enqueue is the call of one task.

  KEYS[1]     asynq:{<q>}:pending
  KEYS[i+1]   asynq:{<q>}:t:<id of task i>, for i = 1..N
  KEYS[N+2]   asynq:queues (optional: on a single Redis the queue is registered in this call,
              one command instead of asynq's SADD + script pipeline; a Cluster keeps
              asynq:queues in another slot and sends SADD beside the script)
  ARGV[1]     queue name (registered with KEYS[N+2])
  ARGV[3i-1]  encoded TaskMessage of task i
  ARGV[3i]    id of task i
  ARGV[3i+1]  now in Unix nanoseconds (decimal) when task i was enqueued

  Returns: one code per task, in order: 1 enqueued | 0 a task with this ID exists in the queue
  (task ID conflict; the queue is registered all the same, as asynq's SADD runs first). Tasks
  are written in order, so a later task with the ID of an earlier one in the call conflicts.
  Cost: O(N); callers send at most MAX_TASKS (16) tasks per call, well under 0.1 ms.
]]
local n = (#ARGV - 1) / 3
if #KEYS > n + 1 then redis.call('SADD', KEYS[n + 2], ARGV[1]) end
local codes = {}
for i = 1, n do
  local task_key, a = KEYS[i + 1], 3 * i - 1
  if redis.call('EXISTS', task_key) == 1 then
    codes[i] = 0
  else
    redis.call('HSET', task_key, 'msg', ARGV[a], 'state', 'pending', 'pending_since', ARGV[a + 2])
    redis.call('LPUSH', KEYS[1], ARGV[a + 1])
    codes[i] = 1
  end
end
return codes
