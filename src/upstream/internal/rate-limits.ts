import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiError, BodyTooLargeError, readBody, sendJson } from '#common';
import { feedAuthorized } from '#issuer';
import type { RateLimitStore, UsageReport, UsageStore } from '#store';
import { z } from 'zod';

export const POLICY_PATH = '/internal/rate-limits';
export const USAGE_PATH = '/internal/usage';

/**
 * The policy feed the gateways poll (`GET /internal/rate-limits`, the revocation feed's
 * credential): every project's plan and override, and every enabled API key's project. An ETag
 * of the body answers an unchanged poll 304 with no body.
 */
export async function servePolicies(
  store: RateLimitStore,
  feedToken: string,
  req: IncomingMessage,
  res: ServerResponse,
) {
  if (!feedAuthorized(req.headers.authorization, feedToken)) return refuse(res);
  const [projects, keys] = await Promise.all([store.projectPolicies(), store.apiKeyProjects()]);
  const body = JSON.stringify({
    projects: projects.map((p) => ({ id: p.projectId, plan: p.plan, override: p.override })),
    api_keys: keys.map((k) => ({ key: k.key, project_id: k.projectId })),
  });
  const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, { etag }).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', etag, 'cache-control': 'no-store' }).end(body);
}

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

/** As the revocation feed refuses a missing or wrong feed token. */
function refuse(res: ServerResponse): void {
  sendJson(
    res,
    401,
    { error: 'invalid_token', error_description: 'feed token required' },
    { 'www-authenticate': 'Bearer realm="tokengate"', 'cache-control': 'no-store' },
  );
}
