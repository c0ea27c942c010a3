import 'server-only';
import { BODY_TEXT } from './responses';

/**
 * The lighter objects a read is answered with when the launcher's API lane (bin/api-lane.mjs)
 * hands it in, instead of web Request and Response. Building a Response costs about 45 µs of
 * CPU (its body becomes a web stream, its headers validate every set), setting the security
 * headers on it 20 µs more, and the lane then reads it all back out; a task's detail costs
 * about as much again to fetch from Redis and map. The lane's request carries LANE_REQUEST; for
 * it, route() answers a read with a LaneAnswer, which the lane writes straight to the socket.
 * A mutation, a stream, a download or an answer a handler built itself stays a Response, so
 * the audit log and every other consumer of Responses see what they always did.
 */

/** Set (to true) on the request objects the API lane builds: registered, so the plain-JavaScript lane finds the same key. */
export const LANE_REQUEST = Symbol.for('asynqlens.lane-request');

/** Where the lane's request keeps the URL it already parsed (route() would parse it again). */
export const LANE_URL = Symbol.for('asynqlens.lane-url');

/** The lane request's parsed URL, or undefined for any other request. */
export function laneUrl(req: Request): URL | undefined {
  return (req as unknown as Record<symbol, URL | undefined>)[LANE_URL];
}

/** Whether `req` came through the API lane (and so may be answered with a LaneAnswer). */
export function isLaneRequest(req: Request): boolean {
  return (req as unknown as Record<symbol, unknown>)[LANE_REQUEST] === true;
}

/** Response headers as a plain record of lowercase names: what Node's writeHead takes as is. */
export class AnswerHeaders {
  readonly record: Record<string, string> = Object.create(null) as Record<string, string>;

  set(name: string, value: string): void {
    this.record[name.toLowerCase()] = value;
  }

  get(name: string): string | null {
    return this.record[name.toLowerCase()] ?? null;
  }

  has(name: string): boolean {
    return name.toLowerCase() in this.record;
  }

  delete(name: string): void {
    delete this.record[name.toLowerCase()];
  }

  /** A LaneAnswer never sets a cookie (sign-in answers with a Response). */
  getSetCookie(): string[] {
    return [];
  }

  *[Symbol.iterator](): IterableIterator<[string, string]> {
    for (const name in this.record) yield [name, this.record[name]!];
  }
}

/** A JSON (or empty) answer for the API lane; see the module comment. */
export class LaneAnswer {
  readonly headers = new AnswerHeaders();
  readonly [BODY_TEXT]: string | undefined;

  constructor(
    readonly status: number,
    text: string | undefined,
  ) {
    this[BODY_TEXT] = text;
    if (text !== undefined) this.headers.set('content-type', 'application/json');
  }

  /** What a Response's body would be: null when there is none (a 204). */
  get body(): string | null {
    return this[BODY_TEXT] ?? null;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }
}

/** What route() answers with: a web Response, or a LaneAnswer for a read that came through the lane. */
export type Answer = Response | LaneAnswer;
