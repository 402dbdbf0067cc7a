import { z } from 'zod';
import { duration } from '../duration.ts';
import { documented, int, port } from './values.ts';

/** How the gateway serves clients: its listeners, what a client may send, its processes. */

export const listenSchema = z
  .strictObject({
    host: z
      .string()
      .default('127.0.0.1')
      .describe('Address to listen on: `127.0.0.1` keeps the gateway local, `0.0.0.0` listens on all.'),
    port: port.optional().meta(documented('Port to listen on (0: any free port).', '`GATEWAY_PORT`, else `8080`')),
  })
  .prefault({})
  .describe('The public listener: the whole public API is served here. Changing it takes a restart.');

export const tlsSchema = z
  .strictObject({
    cert: z.string().min(1).describe('Path of the PEM certificate file.'),
    key: z.string().min(1).describe('Path of the PEM private key file.'),
  })
  .optional()
  .describe(
    'When present, the listener is HTTPS with these files; without it, plain HTTP. Both files are read ' +
      'again at every reload; turning TLS on or off takes a restart.',
  );

export const limitsSchema = z
  .strictObject({
    maxHeaderSize: int(1_024, 1_048_576)
      .default(16_384)
      .describe('Largest request head, in bytes; larger gets 431 with the `1043` body. Takes a restart.'),
    maxUrlLength: int(64, 1_048_576)
      .default(8_192)
      .describe('Longest request URL, in characters; longer gets 414 with the `1043` body.'),
    maxBodyBytes: int(0, 2 ** 32)
      .default(1_048_576)
      .describe('Largest request body, in bytes (the default is 1 MiB); larger gets 413 `1043`.'),
    headersTimeoutMs: duration('ms', 100, 600_000, 10_000).describe(
      'Time, in ms, a client has to send the request head; at most `requestTimeoutMs`. A slower client ' +
        'gets 408. Takes a restart.',
    ),
    requestTimeoutMs: duration('ms', 100, 3_600_000, 60_000).describe(
      'Time, in ms, a client has to send the whole request (else 408). Takes a restart.',
    ),
    keepAliveTimeoutMs: duration('ms', 100, 600_000, 5_000).describe(
      'How long, in ms, an idle keep-alive connection stays open. Takes a restart.',
    ),
  })
  // Node's server refuses to start with a headers timeout longer than the request timeout.
  .refine((l) => l.headersTimeoutMs <= l.requestTimeoutMs, {
    message: 'must not exceed limits.requestTimeoutMs',
    path: ['headersTimeoutMs'],
  })
  .prefault({})
  .describe('Bounds on what a client may send, and how slowly.');

export const metricsSchema = z
  .strictObject({
    host: z
      .string()
      .optional()
      .meta(
        documented(
          'Address of the metrics listener: `0.0.0.0` lets a Prometheus in another container or pod scrape it.',
          '`METRICS_HOST`, else `127.0.0.1`',
        ),
      ),
    port: port
      .optional()
      .meta(
        documented(
          'Port of the metrics listener. When neither this key nor `METRICS_PORT` sets it and 9464 is ' +
            'taken, a free port is used and a warning names it.',
          '`METRICS_PORT`, else `9464`',
        ),
      ),
  })
  .prefault({})
  .describe('The Prometheus `/metrics` listener, on its own port. Changing it takes a restart.');

export const workersSchema = z
  .union([int(1, 256), z.literal('auto')])
  .default(1)
  .describe(
    'Worker processes of `npm run gateway` (Node cluster): a number, or `auto` for one per core. ' +
      '`npm start` runs one gateway inside its own process. Takes a restart.',
  );

export const drainTimeoutSchema = duration('ms', 0, 600_000, 10_000).describe(
  'On SIGTERM or SIGINT, how long, in ms, requests under way may take to finish.',
);
