import { z } from 'zod';
import { duration } from '../duration.ts';
import { documented, int, requestUrl } from './values.ts';

/** `upstream` of `gateway.yaml`: where verified requests are forwarded, and how. */
export const upstreamSchema = z
  .strictObject({
    url: requestUrl
      .optional()
      .meta(
        documented(
          'Base URL of the upstream, http or https, without credentials (`user:password@` would never be ' +
            'sent). The key set and revocation feed URLs default to paths under it.',
          '`UPSTREAM_URL`, else `http://127.0.0.1:$UPSTREAM_PORT` (`UPSTREAM_PORT` defaults to 3000)',
        ),
      ),
    engine: z
      .enum(['http-proxy-3', 'undici'])
      .default('http-proxy-3')
      .describe(
        "The forwarding engine: `http-proxy-3` (on Node's HTTP client) or `undici` (on undici's connection " +
          'pool, about twice the throughput; see docs/performance.md). Both forward alike, except that ' +
          "undici's response timers tick twice a second, so `responseTimeoutMs` fires up to 1 s late. A " +
          'reload builds the new engine and closes the old one once its requests have finished.',
      ),
    connectTimeoutMs: duration('ms', 1, 60_000, 2_000).describe(
      "Longest wait, in ms, for an upstream connection: a new one's connect, or a free socket when all " +
        '`maxSockets` are busy. Past it the request gets 502 `1050`.',
    ),
    responseTimeoutMs: duration('ms', 1, 600_000, 30_000).describe(
      'Longest silence, in ms, from the upstream once the request is on a socket, new or pooled. Past it ' +
        'the request gets 504 `1051`.',
    ),
    keepAliveSockets: int(1, 10_000)
      .default(256)
      .describe(
        'Idle keep-alive sockets kept open to the upstream (the most recently used is reused first). ' +
          'http-proxy-3 engine only: undici keeps every idle connection until its keep-alive timeout ' +
          "(the upstream's `Keep-Alive` hint less 2 s, else 4 s).",
      ),
    maxSockets: int(1, 100_000)
      .default(1_024)
      .describe('Most sockets open to the upstream at once; further requests wait for a free one.'),
  })
  .prefault({})
  .describe('Where verified requests are forwarded, and how.');
