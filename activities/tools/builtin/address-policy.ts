/**
 * Which IP addresses `http_fetch` may connect to. Addresses are classified from their bytes
 * (so `::ffff:127.0.0.1`, `::ffff:7f00:1` and `127.0.0.1` are the same loopback address), and
 * anything that is not plainly a public unicast address is refused unless its class is allowed.
 * Reserved addresses (unspecified, multicast, broadcast, documentation, unassigned) are never
 * allowed: nothing legitimate is served from them, and some (0.0.0.0) reach the local host.
 */
import { isIP } from 'node:net';

/** The class of an IP address, from the point of view of a server-side request. */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'reserved';

/** The classes an operator may open up (public is always allowed, reserved never). */
export type AllowableClass = 'loopback' | 'private' | 'link-local';

/** A prefix rule: addresses whose first `bits` bits equal those of `prefix` are in `class`. */
interface Rule {
  prefix: number[];
  bits: number;
  class: AddressClass;
}

function rule(cidr: string, addressClass: AddressClass): Rule {
  const [address = '', bits = ''] = cidr.split('/');
  const prefix = parseIPv4(address) ?? parseIPv6(address);
  if (!prefix) throw new Error(`bad rule ${cidr}`);
  return { prefix, bits: Number(bits), class: addressClass };
}

/** IPv4 rules, most specific first; anything unmatched is public. */
const IPV4_RULES: Rule[] = [
  rule('0.0.0.0/8', 'reserved'), // "this network"; 0.0.0.0 reaches the local host
  rule('10.0.0.0/8', 'private'),
  rule('100.64.0.0/10', 'private'), // carrier-grade NAT
  rule('127.0.0.0/8', 'loopback'),
  rule('169.254.0.0/16', 'link-local'), // includes cloud metadata at 169.254.169.254
  rule('172.16.0.0/12', 'private'),
  rule('192.0.0.0/24', 'reserved'), // IETF protocol assignments
  rule('192.0.2.0/24', 'reserved'), // documentation (TEST-NET-1)
  rule('192.88.99.0/24', 'reserved'), // deprecated 6to4 relay anycast
  rule('192.168.0.0/16', 'private'),
  rule('198.18.0.0/15', 'reserved'), // benchmarking
  rule('198.51.100.0/24', 'reserved'), // documentation (TEST-NET-2)
  rule('203.0.113.0/24', 'reserved'), // documentation (TEST-NET-3)
  rule('224.0.0.0/4', 'reserved'), // multicast
  rule('240.0.0.0/4', 'reserved'), // future use, and 255.255.255.255 broadcast
];

/** IPv6 rules checked after the ones that embed an IPv4 address; unmatched is reserved. */
const IPV6_RULES: Rule[] = [
  rule('::/128', 'reserved'), // unspecified
  rule('::1/128', 'loopback'),
  rule('::/96', 'reserved'), // deprecated IPv4-compatible addresses
  rule('64:ff9b:1::/48', 'private'), // local-use NAT64
  rule('100::/64', 'reserved'), // discard-only
  rule('2001::/32', 'reserved'), // Teredo
  rule('2001:db8::/32', 'reserved'), // documentation
  rule('2000::/3', 'public'), // global unicast
  rule('fc00::/7', 'private'), // unique local
  rule('fe80::/10', 'link-local'),
  rule('fec0::/10', 'private'), // deprecated site-local
  rule('ff00::/8', 'reserved'), // multicast
];

/** Prefixes whose last bytes are an IPv4 address that decides the class. */
const MAPPED_PREFIX = rule('::ffff:0:0/96', 'reserved'); // IPv4-mapped
const NAT64_PREFIX = rule('64:ff9b::/96', 'reserved'); // well-known NAT64
const SIX_TO_FOUR_PREFIX = rule('2002::/16', 'reserved'); // 6to4: IPv4 in bytes 2..5

function parseIPv4(text: string): number[] | undefined {
  if (isIP(text) !== 4) return undefined;
  return text.split('.').map(Number);
}

/** Parses an IPv6 address (zone id, `::` and a dotted IPv4 tail allowed) into 16 bytes. */
function parseIPv6(text: string): number[] | undefined {
  const address = text.split('%')[0] ?? '';
  if (isIP(address) !== 6) return undefined;
  const [head = '', tail] = address.split('::');
  const groups = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          const v4 = parseIPv4(group)?.reduce((value, byte) => value * 256 + byte, 0);
          return v4 === undefined ? [parseInt(group, 16)] : [Math.floor(v4 / 0x10000), v4 % 0x10000];
        });
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  return all.flatMap((group) => [group >> 8, group & 0xff]);
}

function matches(bytes: number[], { prefix, bits }: Rule): boolean {
  for (let bit = 0; bit < bits; bit += 8) {
    const mask = bits - bit >= 8 ? 0xff : (0xff << (8 - (bits - bit))) & 0xff;
    if (((bytes[bit / 8] ?? 0) & mask) !== ((prefix[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
}

function classifyIPv4(bytes: number[]): AddressClass {
  return IPV4_RULES.find((r) => matches(bytes, r))?.class ?? 'public';
}

function classifyIPv6(bytes: number[]): AddressClass {
  if (matches(bytes, MAPPED_PREFIX) || matches(bytes, NAT64_PREFIX)) return classifyIPv4(bytes.slice(12));
  if (matches(bytes, SIX_TO_FOUR_PREFIX)) {
    // A 6to4 address leads to the IPv4 host it embeds; only a public one makes sense.
    return classifyIPv4(bytes.slice(2, 6)) === 'public' ? 'public' : 'reserved';
  }
  return IPV6_RULES.find((r) => matches(bytes, r))?.class ?? 'reserved';
}

/**
 * Classifies an IPv4 or IPv6 address (IPv6 may carry a zone id, `fe80::1%eth0`, and may be
 * IPv4-mapped, `::ffff:10.0.0.1`, in which case the IPv4 address decides).
 * @throws Error when `ip` is not an IP address (host names must be resolved first).
 */
export function classifyAddress(ip: string): AddressClass {
  const v4 = parseIPv4(ip);
  if (v4) return classifyIPv4(v4);
  const v6 = parseIPv6(ip);
  if (v6) return classifyIPv6(v6);
  throw new Error(`"${ip}" is not an IP address`);
}

/**
 * True when `ip` may be connected to: public addresses always, reserved ones never, the others
 * when their class is in `allow`. Fails closed: anything that is not an IP address is refused.
 */
export function isAllowed(ip: string, allow: readonly AllowableClass[]): boolean {
  if (isIP(ip.split('%')[0] ?? '') === 0) return false;
  const addressClass = classifyAddress(ip);
  if (addressClass === 'public') return true;
  if (addressClass === 'reserved') return false;
  return allow.includes(addressClass);
}
