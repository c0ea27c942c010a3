/**
 * Groups tasks, as they stream past, by exact payload (same type and payload MD5: what asynq's
 * Unique option would have refused) and by near payload (JSON equal but for fields that vary
 * per enqueue). Memory is bounded: counts and a few sample IDs per group, in typed arrays.
 */
import { hash } from 'node:crypto';
import { DigestTable, IdArena, SampleLists } from './digest-table';
import { NearShapes, type NearGroupRecord, type Sample } from './near-shapes';
import { canonicalize } from './volatile-fields';

export interface DuplicateGroup {
  kind: 'exact' | 'near';
  /** Stable across scans of the same data: `exact:<type>:<md5>` or `near:<type>:<digest>`. */
  id: string;
  taskType: string;
  /** Tasks in the group. */
  count: number;
  /** Up to `samples` of them, earliest seen first (oldest first within each state). */
  tasks: { id: string; state: string }[];
  /** Near groups: dotted paths of the volatile fields whose values differ within the group. */
  varyingFields: string[];
  /** Exact groups: the payload's MD5 (the lock key's checksum); null for near groups. */
  payloadMd5: string | null;
  /** Different payloads in the group: 1 for exact groups, ≥ 2 for near groups. */
  distinctPayloads: number;
}

export interface GrouperOptions {
  /** Sample IDs kept per group (default 20). */
  samples?: number;
  /** Near-payload shapes tracked at most (default 100,000); beyond it `nearCapped` is set. */
  nearLimit?: number;
  /** Payloads longer than this are grouped exactly only (default 64 KiB). */
  nearMaxBytes?: number;
}

/**
 * The grouping state of one scan: feed it every task with add(), read the largest groups
 * with groups() at any time. About 35 bytes per distinct payload plus its sample IDs; near
 * shapes are tracked up to `nearLimit`.
 */
export class DuplicateGrouper {
  private readonly table = new DigestTable();
  private readonly arena = new IdArena();
  private readonly lists = new SampleLists(this.arena);
  private readonly typeIndex = new Map<string, number>();
  private readonly typeNames: string[] = [];
  private readonly nears: NearShapes;
  /** Slots whose count reached 2, in that order. */
  private readonly dupSlots: number[] = [];
  private readonly samples: number;
  private readonly nearMaxBytes: number;

  constructor(private readonly states: readonly string[], opts: GrouperOptions = {}) {
    this.samples = opts.samples ?? 20;
    this.nears = new NearShapes(opts.nearLimit ?? 100_000, this.samples);
    this.nearMaxBytes = opts.nearMaxBytes ?? 64 * 1024;
  }

  /** Counts one task. `stateIdx` indexes the states given to the constructor. O(1) amortised. */
  add(id: Buffer, stateIdx: number, type: Buffer, payload: Buffer): void {
    const typeKey = type.toString('latin1');
    let typeIdx = this.typeIndex.get(typeKey);
    if (typeIdx === undefined) {
      typeIdx = this.typeNames.length;
      this.typeIndex.set(typeKey, typeIdx);
      this.typeNames.push(type.toString('utf8'));
    }
    const t = this.table;
    const { slot, isNew } = t.slot(typeIdx, hash('md5', payload, 'binary'));
    const count = ++t.count[slot]!;
    if (t.samples[slot]! < this.samples) {
      t.head[slot] = this.lists.push(t.head[slot]!, id, stateIdx);
      t.samples[slot]!++;
    }
    if (isNew) t.near[slot] = this.joinNear(typeIdx, slot, payload);
    else if (count === 2) this.dupSlots.push(slot);
    const n = t.near[slot]!;
    if (n >= 0) this.nears.add(n, id, stateIdx);
  }

  /** The near shape of a payload seen for the first time; -1 when it has none. */
  private joinNear(typeIdx: number, slot: number, payload: Buffer): number {
    if (payload.length > this.nearMaxBytes) return -1;
    const form = canonicalize(payload);
    if (form === null) return -1;
    const key = hash('md5', `${typeIdx}\u0000${form.text}`, 'base64');
    return this.nears.join(key, typeIdx, slot, form, (first) => this.lists.read(this.table.head[first]!));
  }

  /** Exact groups (count ≥ 2) so far. */
  get exactGroups(): number {
    return this.dupSlots.length;
  }

  /** Near groups (≥ 2 different payloads) so far. */
  get nearGroups(): number {
    return this.nears.groupCount;
  }

  /** True once a near shape went untracked (more than `nearLimit` shapes). */
  get nearCapped(): boolean {
    return this.nears.capped;
  }

  /** Tasks that keeping one task per exact group would delete. */
  get surplusTasks(): number {
    return this.dupSlots.reduce((n, s) => n + this.table.count[s]! - 1, 0);
  }

  /** Bytes held by the typed arrays (the bulk of the grouper's memory). */
  get bytes(): number {
    return this.table.bytes + this.arena.bytes + this.lists.bytes;
  }

  /** The `limit` largest groups, largest first (exact before near on a tie). */
  groups(limit: number): DuplicateGroup[] {
    const t = this.table;
    const exact = this.dupSlots.map((slot) => ({ kind: 'exact' as const, slot, count: t.count[slot]! }));
    const near = [...this.nears.groups()].map((rec) => ({ kind: 'near' as const, rec, count: rec.count }));
    const top = [...exact, ...near]
      .sort((a, b) => b.count - a.count || (a.kind === b.kind ? 0 : a.kind === 'exact' ? -1 : 1))
      .slice(0, limit);
    return top.map((g) => (g.kind === 'exact' ? this.exactGroup(g.slot) : this.nearGroup(g.rec)));
  }

  private tasks(samples: Sample[]): { id: string; state: string }[] {
    // A task re-read because its set shifted during the scan must not appear twice: a "keep
    // the first, delete the rest" action would then delete the one it meant to keep.
    const seen = new Set<string>();
    return samples.flatMap(({ id, stateIdx }) => {
      if (seen.has(id)) return [];
      seen.add(id);
      return [{ id, state: this.states[stateIdx] ?? '' }];
    });
  }

  private exactGroup(slot: number): DuplicateGroup {
    const t = this.table;
    const taskType = this.typeNames[t.typeIdx(slot)] ?? '';
    const md5 = t.md5Hex(slot);
    return {
      kind: 'exact', id: `exact:${taskType}:${md5}`, taskType, count: t.count[slot]!,
      tasks: this.tasks(this.lists.read(t.head[slot]!)), varyingFields: [], payloadMd5: md5, distinctPayloads: 1,
    };
  }

  private nearGroup(g: NearGroupRecord): DuplicateGroup {
    const taskType = this.typeNames[g.typeIdx] ?? '';
    return {
      kind: 'near', id: `near:${taskType}:${Buffer.from(g.key, 'base64').toString('hex')}`, taskType, count: g.count,
      tasks: this.tasks(g.samples), varyingFields: [...g.varying].sort(), payloadMd5: null, distinctPayloads: g.distinct,
    };
  }
}
