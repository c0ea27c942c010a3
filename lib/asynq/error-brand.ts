/**
 * `instanceof` that survives bundling. Next compiles a module once per layer (pages, route
 * handlers, proxy.ts), each with its own copy of every class, while the objects cached on
 * globalThis (the Redis client, the inspector, the auth configuration) are shared by all of
 * them: an error thrown by one copy's class fails `instanceof` against another copy's, and a
 * 404 becomes a 500. A branded class answers `instanceof` by a brand registered with
 * `Symbol.for` on its prototype, which every copy shares.
 *
 * A subclass of a branded class must be branded too (with its own name), or `instanceof` the
 * subclass would accept any instance of the parent.
 */
export function brandErrorClass(cls: abstract new (...args: never[]) => Error, name: string): void {
  const brand = Symbol.for(`asynqlens.error.${name}`);
  Object.defineProperty(cls.prototype, brand, { value: true });
  Object.defineProperty(cls, Symbol.hasInstance, {
    value: (value: unknown) => typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true,
  });
}
