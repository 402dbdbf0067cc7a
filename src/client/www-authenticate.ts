/**
 * A `WWW-Authenticate` field value read as RFC 9110 §11.6.1 challenges: what a resource server's
 * 401 asks of the client. The value is the server's, so it is parsed strictly and never trusted:
 * anything not well-formed (or too long) reads as no challenge at all.
 */
export interface Challenge {
  /** As sent; compare without case. */
  readonly scheme: string;
  /** Auth-param names lower-cased, quoted-string values unescaped. */
  readonly params: ReadonlyMap<string, string>;
  /** The token68 form (`Basic dXNlcg==`), when the challenge has one instead of params. */
  readonly token68?: string;
}

/** Far more than any challenge this client acts on; a longer value is not read. */
export const MAX_CHALLENGE_LENGTH = 8192;

const TOKEN = /[!#$%&'*+\-.^_`|~0-9A-Za-z]+/y;
const TOKEN68 = /[A-Za-z0-9\-._~+/]+=*/y;
const OWS = /[ \t]*/y;
const QUOTED = /"((?:[\t \x21\x23-\x5b\x5d-\x7e\x80-\xff]|\\[\t \x21-\x7e\x80-\xff])*)"/y;

/** The challenges of `value` in order, or undefined when it is not a well-formed challenge list. */
export function parseChallenges(value: string): Challenge[] | undefined {
  if (value.length > MAX_CHALLENGE_LENGTH) return undefined;
  const reader = new Reader(value);
  const challenges: Challenge[] = [];
  for (;;) {
    reader.skipSeparators();
    if (reader.done()) return challenges;
    const challenge = readChallenge(reader);
    if (challenge === undefined) return undefined;
    challenges.push(challenge);
  }
}

/**
 * RFC 9449 §9: the resource server wants a proof with its nonce, `DPoP error="use_dpop_nonce"`
 * among the challenges.
 */
export function asksForDpopNonce(value: string | null): boolean {
  if (value === null) return false;
  const challenges = parseChallenges(value) ?? [];
  return challenges.some((c) => c.scheme.toLowerCase() === 'dpop' && c.params.get('error') === 'use_dpop_nonce');
}

function readChallenge(reader: Reader): Challenge | undefined {
  const scheme = reader.match(TOKEN);
  if (scheme === undefined) return undefined;
  const params = new Map<string, string>();
  const afterScheme = reader.at;
  reader.match(OWS);
  if (reader.done() || reader.peek() === ',') return { scheme, params };
  reader.at = afterScheme;
  if (reader.match(/ +/y) === undefined) return undefined;
  const token68 = readToken68(reader);
  if (token68 !== undefined) return { scheme, params, token68 };
  do {
    const name = reader.match(TOKEN);
    if (name === undefined) return undefined;
    reader.match(OWS);
    if (reader.peek() !== '=') return undefined;
    reader.advance(1);
    reader.match(OWS);
    const quoted = reader.match(QUOTED, 1);
    const param = quoted === undefined ? reader.match(TOKEN) : quoted.replace(/\\(.)/gs, '$1');
    const key = name.toLowerCase();
    // RFC 9110: each parameter name only once per challenge.
    if (param === undefined || params.has(key)) return undefined;
    params.set(key, param);
    reader.match(OWS);
    if (!reader.done() && reader.peek() !== ',') return undefined;
    reader.skipSeparators();
  } while (!reader.done() && reader.startsParam());
  return { scheme, params };
}

/** A token68 only when nothing but the list's end or a comma follows it (`realm=` starts a param). */
function readToken68(reader: Reader): string | undefined {
  const start = reader.at;
  const token68 = reader.match(TOKEN68);
  reader.match(OWS);
  if (token68 !== undefined && (reader.done() || reader.peek() === ',')) return token68;
  reader.at = start;
  return undefined;
}

class Reader {
  at = 0;
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  done(): boolean {
    return this.at >= this.text.length;
  }

  peek(): string | undefined {
    return this.text[this.at];
  }

  advance(count: number): void {
    this.at += count;
  }

  /** The text `pattern` (sticky) matches here, or undefined; on a match the reader moves past it. */
  match(pattern: RegExp, group = 0): string | undefined {
    pattern.lastIndex = this.at;
    const found = pattern.exec(this.text);
    if (found === null || found[0] === '') return undefined;
    this.at = pattern.lastIndex;
    return found[group];
  }

  /** Commas and whitespace between list elements (RFC 9110 §5.6.1 allows empty elements). */
  skipSeparators(): void {
    this.match(/[ \t,]*/y);
  }

  /** Whether a `name =` follows: a further param of this challenge, not the next challenge's scheme. */
  startsParam(): boolean {
    const start = this.at;
    const named = this.match(TOKEN) !== undefined;
    this.match(OWS);
    const param = named && this.peek() === '=';
    this.at = start;
    return param;
  }
}
