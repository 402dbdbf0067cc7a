import type { ServerResponse } from 'node:http';
import { pino } from 'pino';
import type { VerifiedToken } from '#auth';
import { destinationOf, type Logger } from '#common';
import type { GatewayMetrics } from '../ops/metrics.ts';
import type { RequestRecord } from './record.ts';

const INFO = pino.levels.values.info ?? 30;

/** Route labels escaped once each (a bounded set: configured patterns and fixed labels). */
const routeJson = new Map<string, string>();

function quotedRoute(route: string): string {
  const known = routeJson.get(route);
  if (known !== undefined) return known;
  const value = JSON.stringify(route);
  routeJson.set(route, value);
  return value;
}

/** `,"clientId":…,"jti":…` per verified token, escaped once: the verified-token cache hands out the same object. */
const tokenFields = new WeakMap<VerifiedToken, string>();

function tokenJson(token: VerifiedToken): string {
  let fields = tokenFields.get(token);
  if (fields === undefined) {
    fields = `,"clientId":${JSON.stringify(token.clientId)},"jti":${JSON.stringify(token.jti)}`;
    tokenFields.set(token, fields);
  }
  return fields;
}

/**
 * Where access lines go: the gateway logger's own destination (common/logger.ts) with its
 * bindings as JSON text, both read once through pino's public API; `log` for its level, and for
 * a logger createLogger did not make, which gets the fields through `info` (slower, same line).
 */
export interface AccessLine {
  readonly log: Logger;
  readonly destination: pino.DestinationStream | undefined;
  /** `,"name":"gateway"`: the logger's bindings as they follow `time` in pino's line. */
  readonly bindings: string;
}

export function accessLineFor(log: Logger): AccessLine {
  let bindings = '';
  for (const [name, value] of Object.entries(log.bindings()))
    bindings += `,${JSON.stringify(name)}:${JSON.stringify(value)}`;
  // Access lines carry only fixed, non-secret fields, so the fallback skips the redaction pass.
  const destination = destinationOf(log);
  return { log: destination ? log : log.child({}, { redact: [] }), destination, bindings };
}

/** `Date.now()` as text, redone when the millisecond changes: the epoch-ms double is past the small-integer range, so each conversion takes V8's double-to-string path, and a busy gateway logs many lines per millisecond. */
let lastTime = 0;
let lastTimeText = '0';

function timeText(): string {
  const now = Date.now();
  if (now !== lastTime) {
    lastTime = now;
    lastTimeText = `${now}`;
  }
  return lastTimeText;
}

/**
 * Milliseconds with two decimals as a JSON number, from small integers: formatting the float
 * itself (`Math.round(x * 100) / 100`) went through V8's double-to-string path on every line,
 * while small integers are turned into text from V8's number-string cache.
 */
export function millisJson(ms: number): string {
  const hundredths = Math.round(ms * 100);
  // Past ~6 hours the count leaves the small-integer range: format the float, as before.
  if (!(hundredths >= 0 && hundredths < 0x3fffffff)) return `${hundredths / 100}`;
  const whole = (hundredths / 100) | 0;
  const fraction = hundredths - whole * 100;
  if (fraction === 0) return `${whole}`;
  if (fraction % 10 === 0) return `${whole}.${fraction / 10}`;
  return `${whole}.${fraction < 10 ? '0' : ''}${fraction}`;
}

/**
 * One line per request when the response is done: id, route, status, decision, error code and
 * latency; the client id and jti for accepted tokens. Never a header value, token or query
 * string (the query may carry `key`/`secret`), so nothing here needs redacting.
 *
 * The line is built by hand in pino's line format (level, time, the logger's bindings, fields,
 * msg) and handed to the logger's own destination: pino's generic serialiser cost several µs
 * per request. Every field is either validated plain text (request id, method, status, codes)
 * or JSON-escaped.
 */
export function finishRequest(
  res: ServerResponse,
  record: RequestRecord,
  out: AccessLine,
  metrics: GatewayMetrics,
): void {
  const status = res.statusCode;
  metrics.countRequest(record.route, status, record.errorCode);
  if (out.log.levelVal > INFO) return;
  let fields = `"reqId":"${record.requestId}","method":"${record.method}","route":${quotedRoute(record.route)},"status":${status},"decision":"${record.decision}"`;
  if (record.errorCode !== '') fields += `,"errorCode":"${record.errorCode}"`;
  if (record.token !== undefined) fields += tokenJson(record.token);
  if (!res.writableFinished) fields += ',"aborted":true';
  fields += `,"ms":${millisJson(performance.now() - record.startedAt)}`;
  if (out.destination === undefined) out.log.info(JSON.parse(`{${fields}}`) as object, 'request');
  else out.destination.write(`{"level":${INFO},"time":${timeText()}${out.bindings},${fields},"msg":"request"}\n`);
}
