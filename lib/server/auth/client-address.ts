import 'server-only';
import { BlockList, isIP } from 'node:net';

/**
 * The header the launcher (bin/asynqlens.mjs) sets on every request to the TCP peer's address,
 * overwriting whatever a client sent under that name. The app trusts it only when the launcher
 * says it runs (`ASYNQLENS_PEER_FROM_LAUNCHER=1`, set by the launcher itself before it starts
 * Next's server); anywhere else a client could have written it.
 */
export const PEER_HEADER = 'x-asynqlens-peer';

/** Stands for every client when the peer is unknown (`next dev`, tests without the launcher). */
export const UNKNOWN_PEER = 'unknown';

/** Parses `ASYNQLENS_TRUSTED_PROXIES` (comma-separated CIDRs or single addresses, IPv4 and IPv6); throws a message naming the bad entry. */
export function parseTrustedProxies(raw: string): BlockList {
  const list = new BlockList();
  for (const entry of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [addr = '', bits, extra] = entry.split('/');
    const family = isIP(addr);
    const prefix = bits === undefined ? (family === 6 ? 128 : 32) : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
    if (family === 0 || extra !== undefined || !(prefix >= 0 && prefix <= (family === 6 ? 128 : 32))) {
      throw new Error(`ASYNQLENS_TRUSTED_PROXIES: ${JSON.stringify(entry)} is not an IPv4 or IPv6 address or CIDR (e.g. 10.0.0.0/8, fd00::/8)`);
    }
    list.addSubnet(addr, prefix, family === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

/** `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) as `1.2.3.4`; brackets and zone ids dropped. */
function plain(address: string): string {
  const a = address.trim().replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  return mapped ? mapped[1]! : a;
}

function trusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The address a sign-in attempt is counted against: the TCP peer, or, when the peer is a
 * trusted proxy, the right-most `X-Forwarded-For` hop that is not itself a trusted proxy (hops
 * to its left were written by the client and prove nothing). No I/O.
 */
export function clientAddress(req: Request, proxies: BlockList): string {
  const peer = process.env.ASYNQLENS_PEER_FROM_LAUNCHER === '1' ? plain(req.headers.get(PEER_HEADER) ?? '') : '';
  if (peer === '') return UNKNOWN_PEER;
  if (!trusted(proxies, peer)) return peer;
  const hops = (req.headers.get('x-forwarded-for') ?? '').split(',').map(plain).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trusted(proxies, hops[i]!)) return hops[i]!;
  }
  return hops[0] ?? peer;
}

/**
 * The key an address is throttled under: an IPv6 address by its /64, since one host is
 * routinely given a whole /64 and could otherwise use a fresh address for every guess. A hop
 * that is not an address (a proxy wrote garbage) is kept as written, cut to 64 characters.
 */
export function addressKey(address: string): string {
  if (isIP(address) !== 6) return address.slice(0, 64);
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
