/**
 * Counts tasks per exact (type, payload MD5) in flat typed arrays: about 35 bytes per distinct
 * payload plus the sample IDs, with nothing for the garbage collector to trace, so a million
 * distinct payloads fit in well under 100 MB.
 */

/** Four chars of a 'binary' string as a little-endian 32-bit word. */
const word = (s: string, i: number): number =>
  (s.charCodeAt(i) | (s.charCodeAt(i + 1) << 8) | (s.charCodeAt(i + 2) << 16) | (s.charCodeAt(i + 3) << 24)) >>> 0;

/** A copy of `a` in a new array of length `n`. */
const widen = <T extends Uint32Array | Uint16Array | Int32Array | Uint8Array>(a: T, n: number, make: (n: number) => T): T => {
  const b = make(n);
  b.set(a);
  return b;
};

/** Task IDs as bytes in one growing buffer; an ID is an (offset, length) pair. */
export class IdArena {
  private buf = Buffer.allocUnsafe(1 << 16);
  private used = 0;

  /** Appends `id` and returns its offset. */
  add(id: Buffer): number {
    if (this.used + id.length > this.buf.length) {
      const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.used + id.length));
      this.buf.copy(next, 0, 0, this.used);
      this.buf = next;
    }
    const at = this.used;
    id.copy(this.buf, at);
    this.used += id.length;
    return at;
  }

  text(offset: number, length: number): string {
    return this.buf.toString('utf8', offset, offset + length);
  }

  get bytes(): number {
    return this.buf.length;
  }
}

/** Sample task IDs of the groups, as linked lists of records (newest first). */
export class SampleLists {
  private off = new Uint32Array(1024);
  private len = new Uint32Array(1024);
  private state = new Uint8Array(1024);
  private next = new Uint32Array(1024);
  /** Record 0 is the list terminator. */
  private used = 1;

  constructor(private readonly arena: IdArena) {}

  /** Prepends a sample to the list starting at `head`; returns the new head. */
  push(head: number, id: Buffer, stateIdx: number): number {
    if (this.used === this.off.length) this.grow();
    const r = this.used++;
    this.off[r] = this.arena.add(id);
    this.len[r] = id.length;
    this.state[r] = stateIdx;
    this.next[r] = head;
    return r;
  }

  /** The list's samples, oldest first. */
  read(head: number): { id: string; stateIdx: number }[] {
    const out: { id: string; stateIdx: number }[] = [];
    for (let r = head; r !== 0; r = this.next[r]!) out.push({ id: this.arena.text(this.off[r]!, this.len[r]!), stateIdx: this.state[r]! });
    return out.reverse();
  }

  private grow(): void {
    const n = this.off.length * 2;
    this.off = widen(this.off, n, (x) => new Uint32Array(x));
    this.len = widen(this.len, n, (x) => new Uint32Array(x));
    this.state = widen(this.state, n, (x) => new Uint8Array(x));
    this.next = widen(this.next, n, (x) => new Uint32Array(x));
  }

  get bytes(): number {
    return this.off.length * 13;
  }
}

const WORDS = 5; // type index + the MD5's four 32-bit words
const EMPTY = 0xffffffff;


/**
 * Open-addressing hash table from (type index, MD5) to a slot holding the task count, the
 * sample list and the near-duplicate group the payload belongs to. Slots are dense (0, 1, 2,
 * ... in order of first sight) and never removed; the per-slot arrays double when full, the
 * hash index doubles at 70 % load.
 */
export class DigestTable {
  private index: Uint32Array;
  private keys: Uint32Array;
  count: Uint32Array;
  head: Uint32Array;
  samples: Uint16Array;
  /** Index of the payload's near-duplicate group, -1 for none. */
  near: Int32Array;
  size = 0;

  constructor(initial = 1 << 12) {
    this.index = new Uint32Array(initial * 2).fill(EMPTY);
    this.keys = new Uint32Array(initial * WORDS);
    this.count = new Uint32Array(initial);
    this.head = new Uint32Array(initial);
    this.samples = new Uint16Array(initial);
    this.near = new Int32Array(initial);
  }

  /**
   * The slot of (typeIdx, md5), created with count 0 when new; `isNew` says which. `md5` is the
   * 16-byte digest as a one-byte-per-char ('binary') string, the cheapest form Node hands out.
   */
  slot(typeIdx: number, md5: string): { slot: number; isNew: boolean } {
    const a = word(md5, 0);
    const b = word(md5, 4);
    const c = word(md5, 8);
    const d = word(md5, 12);
    const mask = this.index.length - 1;
    const k = this.keys;
    let h = (a ^ Math.imul(typeIdx + 1, 0x9e3779b1)) & mask;
    for (;;) {
      const s = this.index[h]!;
      if (s === EMPTY) break;
      const o = s * WORDS;
      if (k[o] === typeIdx && k[o + 1] === a && k[o + 2] === b && k[o + 3] === c && k[o + 4] === d) return { slot: s, isNew: false };
      h = (h + 1) & mask;
    }
    if ((this.size + 1) * 10 > this.index.length * 7) {
      this.rehash(this.index.length * 2);
      return this.slot(typeIdx, md5);
    }
    if (this.size === this.count.length) this.growSlots();
    const s = this.size++;
    this.index[h] = s;
    this.keys.set([typeIdx, a, b, c, d], s * WORDS);
    this.count[s] = 0;
    this.head[s] = 0;
    this.samples[s] = 0;
    this.near[s] = -1;
    return { slot: s, isNew: true };
  }

  /** The MD5 of a slot's payload, as lower-case hex. */
  md5Hex(slot: number): string {
    const b = Buffer.allocUnsafe(16);
    for (let i = 0; i < 4; i++) b.writeUInt32LE(this.keys[slot * WORDS + 1 + i]!, i * 4);
    return b.toString('hex');
  }

  typeIdx(slot: number): number {
    return this.keys[slot * WORDS]!;
  }

  private growSlots(): void {
    const n = this.count.length * 2;
    this.keys = widen(this.keys, n * WORDS, (x) => new Uint32Array(x));
    this.count = widen(this.count, n, (x) => new Uint32Array(x));
    this.head = widen(this.head, n, (x) => new Uint32Array(x));
    this.samples = widen(this.samples, n, (x) => new Uint16Array(x));
    this.near = widen(this.near, n, (x) => new Int32Array(x));
  }

  private rehash(cap: number): void {
    this.index = new Uint32Array(cap).fill(EMPTY);
    const mask = cap - 1;
    for (let s = 0; s < this.size; s++) {
      const o = s * WORDS;
      let h = (this.keys[o + 1]! ^ Math.imul(this.keys[o]! + 1, 0x9e3779b1)) & mask;
      while (this.index[h] !== EMPTY) h = (h + 1) & mask;
      this.index[h] = s;
    }
  }

  /** Bytes held by the table's arrays. */
  get bytes(): number {
    return this.index.byteLength + this.keys.byteLength + this.count.byteLength + this.head.byteLength +
      this.samples.byteLength + this.near.byteLength;
  }
}
