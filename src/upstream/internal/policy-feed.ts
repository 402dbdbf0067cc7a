import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiError, sendJson } from '#common';
import { feedAuthorized } from '#issuer';
import type { PolicyChanges, PolicyCursor, RateLimitStore } from '#store';

export const POLICY_PATH = '/internal/rate-limits';

/** How long the change log keeps an entry: a gateway away for longer reads everything again. */
export const POLICY_LOG_RETENTION_MS = 10 * 60_000;
const PRUNE_EVERY_MS = 60_000;
const CURSOR = /^([0-9a-f]{1,64})\.(\d{1,15})$/;

/**
 * The policy feed the gateways poll (`GET /internal/rate-limits`, the revocation feed's
 * credential). With `?cursor=` (empty: none yet) it answers the changes after the cursor
 * (`{cursor, full, more, projects, api_keys, removed_projects, removed_keys}`): an unchanged poll
 * costs the store two index lookups, and everything is read only for a new gateway or after a gap
 * (`full: true`). Without `cursor` (a gateway of a previous version) it answers every project's plan
 * and override and every usable API key's project, 304 when the body's ETag matches.
 */
export function createPolicyFeed(store: RateLimitStore, feedToken: string) {
  let prunedAt = 0;
  const pruneNow = () => {
    if (Date.now() - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = Date.now();
    // Pruning is housekeeping: a failure is retried a minute later and never fails a poll.
    store.prunePolicyChanges(prunedAt - POLICY_LOG_RETENTION_MS).catch(() => {});
  };
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!feedAuthorized(req.headers.authorization, feedToken)) return refuse(res);
    const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
    const raw = query.get('cursor');
    if (raw === null) return serveEverything(store, req, res);
    const cursor = parsePolicyCursor(raw);
    if (cursor === 'malformed') {
      const { status, body } = apiError('validation_failed', { message: 'cursor must be <epoch>.<seq>' });
      return sendJson(res, status, body);
    }
    pruneNow();
    sendJson(res, 200, changesBody(await store.policyChangesSince(cursor)), { 'cache-control': 'no-store' });
  };
}

/** A gateway's `cursor` parameter: empty (none yet), `<epoch>.<seq>`, or malformed. */
export function parsePolicyCursor(raw: string): PolicyCursor | null | 'malformed' {
  if (raw === '') return null;
  const match = CURSOR.exec(raw);
  return match ? { epoch: match[1] ?? '', seq: Number(match[2]) } : 'malformed';
}

function changesBody(changes: PolicyChanges) {
  return {
    cursor: `${changes.cursor.epoch}.${changes.cursor.seq}`,
    full: changes.full,
    more: changes.more,
    projects: changes.projects.map((p) => ({ id: p.projectId, plan: p.plan, override: p.override })),
    api_keys: changes.apiKeys.map((k) => ({ key: k.key, project_id: k.projectId })),
    removed_projects: changes.removedProjects,
    removed_keys: changes.removedKeys,
  };
}

async function serveEverything(store: RateLimitStore, req: IncomingMessage, res: ServerResponse) {
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

/** As the revocation feed refuses a missing or wrong feed token. */
export function refuse(res: ServerResponse): void {
  sendJson(
    res,
    401,
    { error: 'invalid_token', error_description: 'feed token required' },
    { 'www-authenticate': 'Bearer realm="tokengate"', 'cache-control': 'no-store' },
  );
}
