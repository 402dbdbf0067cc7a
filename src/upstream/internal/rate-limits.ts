import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiError, BodyTooLargeError, readBody, sendJson } from '#common';
import { feedAuthorized } from '#issuer';
import type { UsageReport, UsageStore } from '#store';
import { refuse } from './policy-feed.ts';
import { z } from 'zod';

export const USAGE_PATH = '/internal/usage';

const usageBody = z.strictObject({
  usage: z
    .array(
      z.strictObject({
        project_id: z.string().min(1).max(200),
        day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
        calls: z.int().min(1).max(1_000_000_000),
        quota: z.int().min(1).nullable(),
      }),
    )
    .max(10_000),
});

const MAX_USAGE_BYTES = 2 * 1024 * 1024;

/** `POST /internal/usage`: the calls a gateway counted per project and day, added to the store. */
export async function receiveUsage(store: UsageStore, feedToken: string, req: IncomingMessage, res: ServerResponse) {
  if (!feedAuthorized(req.headers.authorization, feedToken)) {
    req.resume();
    return refuse(res);
  }
  let raw: Buffer;
  try {
    raw = await readBody(req, MAX_USAGE_BYTES);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    const { status, body } = apiError('payload_too_large');
    return sendJson(res, status, body);
  }
  let parsed: z.infer<typeof usageBody>;
  try {
    parsed = usageBody.parse(JSON.parse(raw.toString('utf8')));
  } catch {
    const { status, body } = apiError('validation_failed', { message: 'Invalid usage report' });
    return sendJson(res, status, body);
  }
  const reports: UsageReport[] = parsed.usage.map((u) => ({
    projectId: u.project_id,
    day: u.day,
    calls: u.calls,
    quota: u.quota,
  }));
  await store.addUsage(reports);
  res.writeHead(204).end();
}
