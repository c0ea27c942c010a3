/**
 * Near-duplicate shapes: JSON payloads that are equal once their volatile values are blanked.
 * Most shapes have one payload only (an order ID makes each one different), so a shape is a
 * few array columns until a second payload joins it; only then does it get the full record
 * (varying fields, sample tasks).
 */
import type { CanonicalForm } from './volatile-fields';

export interface Sample {
  id: string;
  stateIdx: number;
}

export interface NearGroupRecord {
  key: string;
  typeIdx: number;
  count: number;
  /** Different exact payloads in the shape. */
  distinct: number;
  varying: Set<string>;
  samples: Sample[];
}

const SEP = '\u0000';

export class NearShapes {
  private readonly index = new Map<string, number>();
  private readonly typeIdx: number[] = [];
  private readonly firstSlot: number[] = [];
  private readonly counts: number[] = [];
  /** The first payload's volatile values, joined: what a second payload is compared with. */
  private readonly firstValues: string[] = [];
  /** Each shape's volatile paths; equal lists are shared (most shapes of a type have the same). */
  private readonly paths: string[][] = [];
  private readonly internedPaths = new Map<string, string[]>();
  private readonly records = new Map<number, NearGroupRecord>();
  /** True once a shape went untracked because `limit` shapes are tracked already. */
  capped = false;

  constructor(
    private readonly limit: number,
    private readonly sampleLimit: number,
  ) {}

  /**
   * The shape of a payload seen for the first time (its exact slot `slot`), created when new;
   * -1 when the limit stops a new shape. A second payload turns the shape into a group, whose
   * samples start as the first payload's (`samplesOf(firstSlot)`).
   */
  join(key: string, typeIdx: number, slot: number, form: CanonicalForm, samplesOf: (slot: number) => Sample[]): number {
    const known = this.index.get(key);
    if (known === undefined) {
      if (this.typeIdx.length >= this.limit) {
        this.capped = true;
        return -1;
      }
      const n = this.typeIdx.length;
      this.index.set(key, n);
      this.typeIdx.push(typeIdx);
      this.firstSlot.push(slot);
      this.counts.push(0);
      this.firstValues.push(form.values.join(SEP));
      const joined = form.paths.join(SEP);
      let paths = this.internedPaths.get(joined);
      if (!paths) this.internedPaths.set(joined, (paths = form.paths));
      this.paths.push(paths);
      return n;
    }
    let rec = this.records.get(known);
    if (!rec) {
      rec = { key, typeIdx, count: this.counts[known]!, distinct: 1, varying: new Set(), samples: samplesOf(this.firstSlot[known]!) };
      this.records.set(known, rec);
    }
    rec.distinct++;
    const first = this.firstValues[known]!.split(SEP);
    const paths = this.paths[known]!;
    form.values.forEach((v, i) => {
      if (v !== first[i]) rec.varying.add(paths[i]!);
    });
    return known;
  }

  /** Counts one task of shape `n` (its sample kept once the shape is a group). */
  add(n: number, id: Buffer, stateIdx: number): void {
    this.counts[n]!++;
    const rec = this.records.get(n);
    if (!rec) return;
    rec.count++;
    if (rec.samples.length < this.sampleLimit) rec.samples.push({ id: id.toString('utf8'), stateIdx });
  }

  /** Shapes with two or more different payloads. */
  groups(): IterableIterator<NearGroupRecord> {
    return this.records.values();
  }

  get groupCount(): number {
    return this.records.size;
  }
}
