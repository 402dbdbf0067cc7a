import { connect } from 'node:net';
import fc from 'fast-check';

/**
 * Raw HTTP/1.x for the gateway's property tests: arbitraries of request bytes (methods, targets,
 * header lines, bodies, framing, garbage, pipelining), an exchange over one TCP connection, and
 * a strict reader of what comes back.
 */

/** The paths of this folder's gateway.yaml, the gateway's own, and some it must refuse. */
const PATHS = [
  '/api/phone/v1/verification',
  '/api/au/address/autocomplete',
  '/public/echo',
  '/healthz',
  '/readyz',
  '/nowhere',
  '/api/phone/v1/verification/',
  '/api//phone/v1/verification',
  '/public/../api/phone/v1/verification',
  '/public/%2e%2e/api/phone/v1/verification',
  '/public/echo%00',
  '/PUBLIC/echo',
  '/public/echo;x',
];

const QUERIES = fc.oneof(
  { arbitrary: fc.constant(''), weight: 4 },
  fc.constantFrom('', '?phone_number=1&default_country_code=AU', '?q=1', '?key=k&secret=s', '?%zz', '?a=1&a=2'),
  fc.string({ unit: 'grapheme-ascii', maxLength: 20 }).map((q) => `?q=${encodeURIComponent(q)}`),
  fc.integer({ min: 900, max: 1200 }).map((n) => `?q=${'a'.repeat(n)}`),
);

const target: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.tuple(fc.constantFrom(...PATHS), QUERIES).map(([p, q]) => p + q), weight: 16 },
  fc.constantFrom(
    '*',
    '',
    'http://gw.test/public/echo',
    'https://gw.test/public/echo',
    'http://user@gw.test/public/echo',
    'http://gw.test',
    '//public/echo',
    'public/echo',
    'http://[::1]:8080/api/phone/v1/verification?phone_number=1',
    '/public/echo#fragment',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }).map((s) => `/${s}`),
);

/** No HEAD: its reply has a length and no body, which the reader below cannot tell from framing. */
const method: fc.Arbitrary<string> = fc
  .oneof(
    { arbitrary: fc.constant('GET'), weight: 20 },
    { arbitrary: fc.constantFrom('POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'), weight: 8 },
    fc.constantFrom('TRACE', 'CONNECT', 'PRI', 'get', 'M-SEARCH', 'PROPFIND', 'QUERY', 'G ET', ''),
    fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 8 }),
  )
  .filter((m) => m !== 'HEAD');

const version = fc.oneof(
  { arbitrary: fc.constant('HTTP/1.1'), weight: 24 },
  fc.constantFrom('HTTP/1.0', 'HTTP/0.9', 'HTTP/2.0', 'HTTP/1.2', 'http/1.1', 'HTTP/1.1 ', ''),
);

/** Header lines a client may well send, some of which the gateway must strip or refuse. */
const HEADER = fc.oneof(
  { arbitrary: fc.nat(999).map((n) => `X-Request-Id: fuzz-${n}`), weight: 2 },
  fc.constantFrom(
    'Accept: */*',
    'Connection: close',
    'Connection: keep-alive',
    'Connection: upgrade\r\nUpgrade: websocket',
    'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA',
    'Connection: x-tokengate-identity, authorization',
    'Expect: 100-continue',
    'Expect: nothing',
    'X-Request-Id: a b"c',
    'X-Tokengate-Identity: client_id="evil", project_id="evil"',
    'x-tokengate-anything: 1',
    'X-Forwarded-For: 203.0.113.9',
    'X-Forwarded-Host: evil.test',
    'X-Real-IP: 203.0.113.9',
    'Forwarded: for=evil;host=evil',
    'TE: trailers',
    'Trailer: X-Late',
    'Host: other.test',
    'host: a"b',
    'Host: [::1]:1',
    'Content-Length: 0',
    'Transfer-Encoding: identity',
    'Keep-Alive: timeout=1',
    'Proxy-Authorization: Basic eDp5',
  ),
);

/** Header lines no parser should take as they are. */
const BAD_HEADER = fc.oneof(
  fc.constantFrom(
    ' folded: continuation',
    '\tfolded continuation',
    'NoColon',
    'Bad Name: x',
    ': empty-name',
    'X-Nul: a\u0000b',
    'Transfer-Encoding : chunked',
    `X-Big: ${'a'.repeat(5000)}`,
  ),
  fc.string({ unit: 'binary-ascii', maxLength: 30 }),
  fc
    .tuple(
      fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 10 }),
      fc.string({ unit: 'binary', maxLength: 20 }),
    )
    .map(([name, value]) => `${name}: ${value}`),
);

/** Body text, now and then past the gateway's 1024-byte limit. */
const BODY_TEXT = fc.oneof(
  { arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 40 }), weight: 4 },
  fc.integer({ min: 1000, max: 1100 }).map((n) => 'b'.repeat(n)),
);

type Framing = { readonly headers: readonly string[]; readonly body: string };

function chunked(body: string, cuts: readonly number[], trailer: boolean): string {
  const at = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
  const parts = [0, ...at].map((start, i) => body.slice(start, at[i] ?? body.length)).filter((p) => p !== '');
  return `${parts.map((p) => `${Buffer.byteLength(p).toString(16)}\r\n${p}\r\n`).join('')}0\r\n${trailer ? 'X-Late: 1\r\n' : ''}\r\n`;
}

/** How the body is delimited: not at all, by length, chunked, or in a way that is wrong. */
const FRAMING: fc.Arbitrary<Framing> = fc.oneof(
  { arbitrary: fc.constant({ headers: [], body: '' }), weight: 12 },
  {
    arbitrary: BODY_TEXT.map((body) => ({ headers: [`Content-Length: ${Buffer.byteLength(body)}`], body })),
    weight: 5,
  },
  {
    arbitrary: fc.tuple(BODY_TEXT, fc.array(fc.nat(), { maxLength: 3 }), fc.boolean()).map(([body, cuts, trailer]) => ({
      headers: ['Transfer-Encoding: chunked'],
      body: chunked(body, cuts, trailer),
    })),
    weight: 5,
  },
  fc.constantFrom<Framing>(
    { headers: ['Content-Length: 5'], body: 'hello, and more' },
    { headers: ['Content-Length: 50'], body: 'short' },
    { headers: ['Content-Length: -1'], body: '' },
    { headers: ['Content-Length: abc'], body: '' },
    { headers: ['Content-Length: 5, 5'], body: 'hello' },
    { headers: ['Content-Length: 5', 'Content-Length: 6'], body: 'hello!' },
    { headers: ['Content-Length: 99999999999'], body: '' },
    { headers: ['Content-Length:  5'], body: 'hello' },
    { headers: ['Content-Length: 5', 'Transfer-Encoding: chunked'], body: '0\r\n\r\n' },
    { headers: ['Transfer-Encoding: chunked', 'Content-Length: 5'], body: '5\r\nhello\r\n0\r\n\r\n' },
    { headers: ['Transfer-Encoding: chunked, gzip'], body: '0\r\n\r\n' },
    { headers: ['Transfer-Encoding: gzip, chunked'], body: '0\r\n\r\n' },
    { headers: ['Transfer-Encoding: xchunked'], body: '0\r\n\r\n' },
    { headers: ['Transfer-Encoding: chunked', 'Transfer-Encoding: chunked'], body: '0\r\n\r\n' },
    { headers: ['Transfer-Encoding: chunked'], body: 'zz\r\nhello\r\n0\r\n\r\n' },
    { headers: ['Transfer-Encoding: chunked'], body: '5\r\nhel' },
    { headers: ['Transfer-Encoding: chunked'], body: 'ffffffffffffffffffff\r\n' },
    { headers: ['Transfer-Encoding: chunked'], body: '-1\r\n' },
    { headers: ['Transfer-Encoding: chunked'], body: '5\r\nhello0\r\n\r\n' },
    { headers: ['Transfer-Encoding: chunked'], body: '5\nhello\n0\n\n' },
    { headers: ['Transfer-Encoding: chunked'], body: '5;ext="a\r\nb"\r\nhello\r\n0\r\n\r\n' },
    {
      headers: ['Transfer-Encoding: chunked'],
      body: '0\r\n\r\nGET /api/phone/v1/verification HTTP/1.1\r\nHost: gw.test\r\nX-Tokengate-Identity: client_id="smuggled"\r\n\r\n',
    },
    {
      headers: ['Content-Length: 0'],
      body: 'GET /api/phone/v1/verification HTTP/1.1\r\nHost: gw.test\r\nX-Tokengate-Identity: client_id="smuggled"\r\n\r\n',
    },
  ),
);

/** One corruption of a request's bytes: a byte replaced, bytes inserted or removed, line ends changed. */
const DAMAGE: fc.Arbitrary<(bytes: Buffer) => Buffer> = fc.oneof(
  fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(
    ([at, byte]) =>
      (b: Buffer) =>
        Buffer.concat([b.subarray(0, at % b.length), Buffer.from([byte]), b.subarray((at % b.length) + 1)]),
  ),
  fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4 })).map(
    ([at, bytes]) =>
      (b: Buffer) =>
        Buffer.concat([b.subarray(0, at % b.length), bytes, b.subarray(at % b.length)]),
  ),
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 8 })).map(
    ([at, n]) =>
      (b: Buffer) =>
        Buffer.concat([b.subarray(0, at % b.length), b.subarray((at % b.length) + n)]),
  ),
  fc.constantFrom(
    (b: Buffer) => Buffer.from(b.toString('latin1').replaceAll('\r\n', '\n'), 'latin1'),
    (b: Buffer) => Buffer.from(b.toString('latin1').replace('\r\n', '\r'), 'latin1'),
    (b: Buffer) => Buffer.from(b.toString('latin1').replace('\r\n\r\n', '\r\n'), 'latin1'),
  ),
);

/** Bytes no HTTP/1 parser should accept as a request. */
const GARBAGE = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
  fc.constantFrom(
    Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'),
    Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03]),
    Buffer.from('\r\n\r\n\r\n'),
    Buffer.from('GET / HTTP/1.1\r\n'),
  ),
);

/** Without the control characters that end a header line early (as most values are sent). */
function printable(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is removed
  return value.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, '');
}

/** `value` one time in ten, else null. */
function rarely<T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.oneof({ arbitrary: fc.constant(null), weight: 9 }, { arbitrary: value, weight: 1 });
}

/**
 * One request: mostly well-formed (so it gets past the parser and meets routing, the token
 * check and forwarding), with odd methods, targets, versions and header lines mixed in, a body
 * framed right or wrong, and now and then one corruption of its bytes.
 */
function request(authorization: fc.Arbitrary<string>): fc.Arbitrary<Buffer> {
  return fc
    .record({
      method,
      target,
      version,
      host: fc.oneof({ arbitrary: fc.constant(['Host: gw.test']), weight: 9 }, fc.constant([])),
      authorization: fc.option(
        fc
          .tuple(authorization, fc.nat(9))
          .map(([value, raw]) => `Authorization: ${raw === 0 ? value : printable(value)}`),
        { freq: 4 },
      ),
      headers: fc.array(HEADER, { maxLength: 3 }),
      second: rarely(authorization.map((value) => `Authorization: ${printable(value)}`)),
      bad: rarely(BAD_HEADER),
      framing: FRAMING,
      damage: rarely(DAMAGE),
    })
    .map(({ method: m, target: t, version: v, host, authorization: a, headers, second, bad, framing, damage }) => {
      const optional = [a, ...headers, second, bad].filter((line): line is string => line !== null);
      const lines = [...host, ...optional, ...framing.headers];
      const bytes = Buffer.from(`${m} ${t} ${v}\r\n${lines.map((l) => `${l}\r\n`).join('')}\r\n${framing.body}`);
      return damage === null ? bytes : damage(bytes);
    });
}

/**
 * One connection's bytes: one to four requests (and garbage now and then), pipelined, then a
 * `/healthz` with `Connection: close` (its reply shows the parser was still in step), split into
 * one to four writes at random places.
 */
export function rawConnection(authorization: fc.Arbitrary<string>): fc.Arbitrary<Buffer[]> {
  const piece = fc.oneof({ arbitrary: request(authorization), weight: 20 }, { arbitrary: GARBAGE, weight: 1 });
  return fc
    .tuple(fc.array(piece, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { maxLength: 3 }))
    .map(([pieces, cuts]) => {
      const all = Buffer.concat([...pieces, Buffer.from(SENTINEL)]);
      const at = [...new Set(cuts.map((c) => c % all.length))].sort((a, b) => a - b);
      return [0, ...at].map((start, i) => all.subarray(start, at[i] ?? all.length)).filter((b) => b.length > 0);
    });
}

export const SENTINEL = 'GET /healthz HTTP/1.1\r\nHost: gw.test\r\nConnection: close\r\n\r\n';

export interface Exchange {
  /** Everything the gateway wrote, latin1 (one char a byte). */
  readonly received: string;
  /** How it ended: the gateway closed (FIN), reset, or we gave up waiting. */
  readonly ending: 'closed' | 'reset' | 'timeout';
}

/**
 * Writes the pieces on one connection (a few ms apart, so the parser meets them in separate
 * reads), waits for the gateway to close; if it has not after `idleMs`, half-closes (the parser
 * then sees end of input), and gives up after `timeoutMs`.
 */
export function exchange(port: number, pieces: readonly Buffer[], idleMs = 200, timeoutMs = 8_000): Promise<Exchange> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    let ending: Exchange['ending'] = 'closed';
    const timers: NodeJS.Timeout[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: Error & { code?: string }) => {
      ending = error.code === 'ECONNRESET' || error.code === 'EPIPE' ? 'reset' : ending;
    });
    socket.on('close', () => {
      for (const timer of timers) clearTimeout(timer);
      resolve({ received: Buffer.concat(chunks).toString('latin1'), ending });
    });
    socket.on('connect', async () => {
      for (const [i, piece] of pieces.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, 2));
        if (socket.destroyed) return;
        socket.write(piece);
      }
      timers.push(
        setTimeout(() => socket.end(), idleMs),
        setTimeout(() => {
          ending = 'timeout';
          socket.destroy();
        }, timeoutMs),
      );
    });
  });
}

export interface ReadResponse {
  readonly status: number;
  /** Header names lower-cased; duplicates kept in order. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: string;
}

const STATUS_LINE = /^HTTP\/1\.1 ([1-5]\d\d) [\x20-\x7e]*\r\n/;
const HEADER_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+): ?([\x20-\x7e\x80-\xff\t]*)$/;

/**
 * Reads every response in `text`, strictly: status line, header lines, and a body framed by
 * Content-Length or chunked encoding (1xx, 204 and 304 have none), or by the end of the
 * connection when the reply says `Connection: close`. Returns the responses, or
 * what is wrong with the first one that is not well-formed (a partial one included).
 */
export function readResponses(text: string): { responses: ReadResponse[]; problem?: string } {
  const responses: ReadResponse[] = [];
  let rest = text;
  while (rest.length > 0) {
    const status = STATUS_LINE.exec(rest);
    if (!status) return { responses, problem: `no status line at ${JSON.stringify(rest.slice(0, 80))}` };
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) return { responses, problem: 'head not terminated' };
    const lines = rest
      .slice(status[0].length, end + 2)
      .split('\r\n')
      .slice(0, -1);
    const headers: Array<[string, string]> = [];
    for (const line of lines) {
      const match = HEADER_LINE.exec(line);
      if (!match) return { responses, problem: `malformed header line ${JSON.stringify(line)}` };
      headers.push([(match[1] as string).toLowerCase(), match[2] as string]);
    }
    rest = rest.slice(end + 4);
    const code = Number(status[1]);
    const values = (name: string) => headers.filter(([n]) => n === name).map(([, v]) => v);
    let body = '';
    if (code >= 200 && code !== 204 && code !== 304) {
      const lengths = values('content-length');
      if (values('transfer-encoding').join(',').toLowerCase() === 'chunked') {
        const chunked = readChunked(rest);
        if (typeof chunked === 'string') return { responses, problem: chunked };
        body = chunked.body;
        rest = rest.slice(chunked.used);
      } else if (lengths.length === 1 && /^\d+$/.test(lengths[0] as string)) {
        const length = Number(lengths[0]);
        if (rest.length < length) return { responses, problem: `body cut short (${rest.length} of ${length})` };
        body = rest.slice(0, length);
        rest = rest.slice(length);
      } else if (values('connection').join(',').toLowerCase() === 'close') {
        // Delimited by the close (an HTTP/1.0 client cannot read chunked framing): the last reply.
        body = rest;
        rest = '';
      } else return { responses, problem: `status ${code} without framing: ${JSON.stringify(headers)}` };
    }
    responses.push({ status: code, headers, body });
  }
  return { responses };
}

function readChunked(text: string): { body: string; used: number } | string {
  let at = 0;
  let body = '';
  for (;;) {
    const line = /^([0-9a-fA-F]+)\r\n/.exec(text.slice(at));
    if (!line) return 'malformed chunk size';
    at += line[0].length;
    const size = Number.parseInt(line[1] as string, 16);
    if (size === 0) {
      if (text.slice(at, at + 2) !== '\r\n') return 'chunked body not terminated';
      return { body, used: at + 2 };
    }
    if (text.length < at + size + 2 || text.slice(at + size, at + size + 2) !== '\r\n') return 'chunk cut short';
    body += text.slice(at, at + size);
    at += size + 2;
  }
}
