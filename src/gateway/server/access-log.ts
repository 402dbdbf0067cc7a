import type { ServerResponse } from 'node:http';
import { pino } from 'pino';
import type { Logger } from '#common';
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
export function finishRequest(res: ServerResponse, record: RequestRecord, log: Logger, metrics: GatewayMetrics): void {
  const status = res.statusCode;
  metrics.countRequest(record.route, status, record.errorCode);
  if (log.levelVal > INFO) return;
  const fields = log as unknown as Record<symbol, unknown>;
  const bindings = fields[pino.symbols.chindingsSym] as string;
  const stream = fields[pino.symbols.streamSym] as pino.DestinationStream;
  let line = `{"level":${INFO},"time":${Date.now()}${bindings},"reqId":"${record.requestId}","method":"${record.method}","route":${quotedRoute(record.route)},"status":${status},"decision":"${record.decision}"`;
  if (record.errorCode !== '') line += `,"errorCode":"${record.errorCode}"`;
  if (record.token !== undefined) line += `,"clientId":${JSON.stringify(record.token.clientId)},"jti":${JSON.stringify(record.token.jti)}`;
  if (!res.writableFinished) line += ',"aborted":true';
  line += `,"ms":${Math.round((performance.now() - record.startedAt) * 100) / 100},"msg":"request"}\n`;
  stream.write(line);
}
