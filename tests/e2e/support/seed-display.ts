/**
 * Names and data that try to fool the eye: a right-to-left override, a zero-width space and a
 * control character in a queue name, a task type, a task ID, an error, a header and a payload,
 * a server host with an override, and a payload that is not UTF-8. display.spec.ts checks that
 * each is shown escaped and that links still reach the raw name.
 */
import type { Redis } from 'ioredis';
import { encodeServerInfo } from '../../../lib/asynq/codec';
import * as k from '../../../lib/asynq/keys';
import { newTaskMessage } from '../../../lib/asynq/testutil/factories';
import { seedPending, seedZset } from '../../../lib/asynq/testutil/seed';

const RLO = '\u202E';
const ZWSP = '\u200B';
const BEL = '\u0007';

/** Reads "e2e-display-cod.exe" once the override reverses "exe.doc". */
export const DISPLAY_QUEUE = `e2e-display-${RLO}exe.doc${ZWSP}`;
export const DISPLAY_TYPE = `invoice:${RLO}fdp.exe${ZWSP}${BEL}`;
export const DISPLAY_TASK_ID = `odd-${RLO}id${ZWSP}`;
export const DISPLAY_ERROR = `refused ${RLO}txt.sgol${ZWSP}${BEL} by upstream`;
export const DISPLAY_PAYLOAD = `note: pay ${RLO}0001$${ZWSP}${BEL}\nsecond line`;
export const DISPLAY_HEADER = { [`x-${RLO}tenant`]: `acme${ZWSP}${BEL}` };
export const DISPLAY_HOST = `worker-${RLO}dorp${ZWSP}`;
export const BINARY_TASK_ID = 'display-binary';
/** Not UTF-8: 0xff 0xfe is a UTF-16 byte-order mark, 0x00 a NUL. */
export const BINARY_BYTES = [0xff, 0xfe, 0x00, 0x41];

/** The escaped forms the console must show. */
export const escaped = (s: string) => s.replaceAll(RLO, '\\u202E').replaceAll(ZWSP, '\\u200B').replaceAll(BEL, '\\u0007');
export const RAW_CHARS = [RLO, ZWSP, BEL];

export async function seedDisplay(redis: Redis): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const odd = newTaskMessage({
    id: DISPLAY_TASK_ID, type: DISPLAY_TYPE, queue: DISPLAY_QUEUE, payload: Buffer.from(DISPLAY_PAYLOAD),
    errorMsg: DISPLAY_ERROR, retried: 1, headers: DISPLAY_HEADER,
  });
  await seedZset(redis, 'retry', odd, now + 3600);
  await seedPending(redis, newTaskMessage({ id: BINARY_TASK_ID, type: 'blob:raw', queue: DISPLAY_QUEUE, payload: Buffer.from(BINARY_BYTES) }));

  const server = { host: DISPLAY_HOST, pid: 31337, serverId: 'd15b1a7e-0000-4000-8000-00000000e2e0' };
  await redis.set(k.serverInfoKey(server.host, server.pid, server.serverId), Buffer.from(encodeServerInfo({
    ...server, concurrency: 2, queues: { [DISPLAY_QUEUE]: 1 }, strictPriority: false, status: 'active',
    startedAt: new Date((now - 600) * 1000), activeWorkerCount: 0,
  })));
  await redis.zadd(k.ALL_SERVERS, now + 3600, k.serverInfoKey(server.host, server.pid, server.serverId));
}
