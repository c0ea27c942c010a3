/**
 * The patterns a TypeScript task server registers, published inside its own heartbeat record so
 * the console knows its routes without a routing file. asynq's ServerInfo protobuf has no field
 * for them, so they travel as a field number asynq's schema does not define: protobuf decoders
 * (Go's proto.Unmarshal included) keep or skip unknown fields and read every known field exactly
 * as before, so Go's Inspector and asynqmon list the server unchanged. Riding in the record, the
 * patterns expire with it: no second key, no second TTL, no stale routes after a crash.
 */
import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';

/**
 * The field number: far above asynq's 1–9 and below protobuf's reserved 19000–19999 range, so a
 * later asynq field cannot collide with it by accident.
 */
export const PUBLISHED_PATTERNS_FIELD = 14_747;

/** Each pattern as one length-delimited occurrence of the field, to append to an encoded ServerInfo. */
export function encodePublishedPatterns(patterns: readonly string[]): Uint8Array {
  const w = new BinaryWriter();
  for (const p of patterns) w.tag(PUBLISHED_PATTERNS_FIELD, WireType.LengthDelimited).string(p);
  return w.finish();
}

/** What a decoder kept of fields it does not know (protobuf-es's `$unknown`). */
export interface UnknownField {
  no: number;
  wireType: WireType;
  data: Uint8Array;
}

/**
 * The published patterns among a decoded message's unknown fields; null when the server
 * published none (a Go server, or a TypeScript server started with a plain handler).
 */
export function readPublishedPatterns(unknown: readonly UnknownField[] | undefined): string[] | null {
  const mine = (unknown ?? []).filter((u) => u.no === PUBLISHED_PATTERNS_FIELD && u.wireType === WireType.LengthDelimited);
  if (mine.length === 0) return null;
  // `data` holds the length prefix and the bytes, as the field was on the wire.
  return mine.map((u) => new BinaryReader(u.data).string());
}
