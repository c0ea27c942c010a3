/**
 * Driving the enqueue form, and reading back what it wrote to Redis.
 */
import type { Redis } from 'ioredis';
import type { Page } from 'playwright-core';
import { decodeTaskMessage } from '../../../lib/asynq/codec';
import * as k from '../../../lib/asynq/keys';
import type { TaskMessage } from '../../../lib/asynq/types';

export async function fillTask(page: Page, f: { queue?: string; type: string; payload?: string; uniqueTtl?: string; taskId?: string }) {
  if (f.queue !== undefined) await page.getByLabel('Queue', { exact: true }).fill(f.queue);
  await page.getByLabel('Type', { exact: true }).fill(f.type);
  if (f.payload !== undefined) await page.getByRole('textbox', { name: 'Payload', exact: true }).fill(f.payload);
  if (f.uniqueTtl !== undefined) await page.getByLabel('Unique TTL').fill(f.uniqueTtl);
  if (f.taskId !== undefined) await page.getByLabel('Task ID').fill(f.taskId);
}

/** Presses Enqueue and waits for the outcome box of this press (each carries its time); returns its text. */
export async function submit(page: Page): Promise<string> {
  const outcome = page.getByTestId('enqueue-outcome');
  const before = (await outcome.count()) > 0 ? await outcome.getAttribute('data-at') : null;
  await page.getByRole('button', { name: 'Enqueue', exact: true }).click();
  const fresh = page.locator(before ? `[data-testid="enqueue-outcome"]:not([data-at="${before}"])` : '[data-testid="enqueue-outcome"]');
  await fresh.waitFor();
  return fresh.innerText();
}

/** The ID of the task the success box links to. */
export async function newTaskId(page: Page): Promise<string> {
  const outcome = page.getByTestId('enqueue-outcome');
  await outcome.getByText('Enqueued').waitFor();
  return (await outcome.getByRole('link').first().innerText()).trim();
}

export async function readMsg(redis: Redis, queue: string, id: string): Promise<TaskMessage> {
  const bytes = await redis.hgetBuffer(k.taskKey(queue, id), 'msg');
  if (!bytes) throw new Error(`no task ${id} in ${queue}`);
  return decodeTaskMessage(bytes);
}

/** The ID of the pending task of `type` in `queue` (the demo's single email:receipt, say). */
export async function findPending(redis: Redis, queue: string, type: string): Promise<string> {
  for (const id of await redis.lrange(k.pendingKey(queue), 0, -1)) {
    if ((await readMsg(redis, queue, id)).type === type) return id;
  }
  throw new Error(`no pending ${type} in ${queue}`);
}

export const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
