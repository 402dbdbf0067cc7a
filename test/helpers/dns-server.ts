import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { isIPv4, isIPv6 } from 'node:net';

/**
 * A tiny real DNS server on loopback UDP for tests: it decodes the question of each query and
 * answers MX, A and AAAA from a table (RFC 1035 message format, no compression on the way out).
 * Tests point a `node:dns` Resolver at it, so the whole lookup path runs against real packets.
 */
export interface MxRecord {
  readonly preference: number;
  /** `'.'` (or `''`) is the root: a null MX (RFC 7505). */
  readonly exchange: string;
}

export interface ZoneEntry {
  readonly mx?: readonly MxRecord[];
  readonly a?: readonly string[];
  readonly aaaa?: readonly string[];
  /** Answer every query for this name with this response code instead of records. */
  readonly rcode?: 'SERVFAIL' | 'REFUSED' | 'NXDOMAIN';
  /** Never answer: the client times out. */
  readonly drop?: boolean;
}

export interface DnsQueryLog {
  readonly name: string;
  readonly type: 'MX' | 'A' | 'AAAA' | number;
}

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, ready for `Resolver.setServers`. */
  readonly address: string;
  /** Every question received, in order. */
  readonly queries: DnsQueryLog[];
  /** Replaces or adds a name's entry (names are case-insensitive, no trailing dot). */
  set(name: string, entry: ZoneEntry): void;
  close(): Promise<void>;
}

const TYPE = { A: 1, MX: 15, AAAA: 28 } as const;
const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

interface Question {
  readonly id: number;
  readonly flags: number;
  readonly name: string;
  readonly type: number;
  /** The raw question section, echoed back verbatim. */
  readonly section: Buffer;
}

function decodeQuestion(message: Buffer): Question | undefined {
  if (message.length < 12 || message.readUInt16BE(4) < 1) return undefined;
  const labels: string[] = [];
  let offset = 12;
  while (offset < message.length) {
    const length = message[offset] ?? 0;
    offset += 1;
    if (length === 0) break;
    if (length > 63) return undefined; // compression is not used in questions we accept
    labels.push(message.toString('latin1', offset, offset + length));
    offset += length;
  }
  if (offset + 4 > message.length) return undefined;
  const type = message.readUInt16BE(offset);
  return {
    id: message.readUInt16BE(0),
    flags: message.readUInt16BE(2),
    name: labels.join('.').toLowerCase(),
    type,
    section: message.subarray(12, offset + 4),
  };
}

function encodeName(name: string): Buffer {
  const trimmed = name.replace(/\.$/, '');
  const parts = trimmed === '' ? [] : trimmed.split('.');
  const chunks = parts.map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'latin1')]));
  return Buffer.concat([...chunks, Buffer.from([0])]);
}

function ipv4Bytes(address: string): Buffer {
  return Buffer.from(address.split('.').map(Number));
}

function ipv6Bytes(address: string): Buffer {
  const [head = '', tail = ''] = address.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = address.includes('::') ? (tail === '' ? [] : tail.split(':')) : [];
  const zeros = new Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  const groups = address.includes('::') ? [...headGroups, ...zeros, ...tailGroups] : headGroups;
  const out = Buffer.alloc(16);
  for (const [index, group] of groups.entries()) out.writeUInt16BE(Number.parseInt(group, 16), index * 2);
  return out;
}

function record(type: number, data: Buffer): Buffer {
  const fixed = Buffer.alloc(12);
  fixed.writeUInt16BE(0xc00c, 0); // pointer to the question's name
  fixed.writeUInt16BE(type, 2);
  fixed.writeUInt16BE(1, 4); // class IN
  fixed.writeUInt32BE(300, 6);
  fixed.writeUInt16BE(data.length, 10);
  return Buffer.concat([fixed, data]);
}

function answersFor(entry: ZoneEntry, type: number): Buffer[] {
  if (type === TYPE.MX) {
    return (entry.mx ?? []).map((mx) => {
      const preference = Buffer.alloc(2);
      preference.writeUInt16BE(mx.preference, 0);
      return record(TYPE.MX, Buffer.concat([preference, encodeName(mx.exchange)]));
    });
  }
  if (type === TYPE.A) return (entry.a ?? []).filter((ip) => isIPv4(ip)).map((ip) => record(TYPE.A, ipv4Bytes(ip)));
  if (type === TYPE.AAAA) {
    return (entry.aaaa ?? []).filter((ip) => isIPv6(ip)).map((ip) => record(TYPE.AAAA, ipv6Bytes(ip)));
  }
  return [];
}

function encodeResponse(question: Question, rcode: number, answers: readonly Buffer[]): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(question.id, 0);
  // QR=1, opcode and RD copied from the query, AA=1, RA=1, then the response code.
  const flags = 0x8000 | (question.flags & 0x7900) | 0x0400 | 0x0080 | rcode;
  header.writeUInt16BE(flags, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  return Buffer.concat([header, question.section, ...answers]);
}

function typeName(type: number): DnsQueryLog['type'] {
  if (type === TYPE.MX) return 'MX';
  if (type === TYPE.A) return 'A';
  if (type === TYPE.AAAA) return 'AAAA';
  return type;
}

/** Starts the server on 127.0.0.1 with a random port. Names absent from the zone are NXDOMAIN. */
export async function startDnsServer(zone: Readonly<Record<string, ZoneEntry>> = {}): Promise<TestDnsServer> {
  const entries = new Map<string, ZoneEntry>(Object.entries(zone).map(([name, entry]) => [name.toLowerCase(), entry]));
  const queries: DnsQueryLog[] = [];
  const socket: Socket = createSocket('udp4');
  socket.on('message', (message: Buffer, peer: RemoteInfo) => {
    const question = decodeQuestion(message);
    if (!question) return;
    queries.push({ name: question.name, type: typeName(question.type) });
    const entry = entries.get(question.name);
    if (entry?.drop) return;
    const rcode = entry ? RCODE[entry.rcode ?? 'NOERROR'] : RCODE.NXDOMAIN;
    const answers = entry && rcode === RCODE.NOERROR ? answersFor(entry, question.type) : [];
    socket.send(encodeResponse(question, rcode, answers), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    queries,
    set: (name, entry) => void entries.set(name.toLowerCase(), entry),
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
