/**
 * Calls a Next.js route handler the way the framework does: a real Request and a params
 * promise. Returns the status and the parsed JSON (or raw bytes for non-JSON bodies).
 */
export type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Response | Promise<Response>;
/** A parsed JSON body: whatever JSON.parse gives, read by assertions that fail loudly. */
export type JsonBody = ReturnType<typeof JSON.parse>;

export async function callRoute(
  handler: Handler,
  path: string,
  params: Record<string, string> = {},
  init?: RequestInit,
): Promise<{ status: number; body: JsonBody; headers: Headers; bytes: Buffer }> {
  const res = await handler(new Request(`http://localhost${path}`, init), { params: Promise.resolve(params) });
  const bytes = Buffer.from(await res.arrayBuffer());
  const isJson = res.headers.get('content-type')?.includes('json');
  return { status: res.status, body: isJson && bytes.length ? JSON.parse(bytes.toString('utf8')) : null, headers: res.headers, bytes };
}
