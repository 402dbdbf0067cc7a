import { type Clock, type Logger, SCOPES, verifyRotatingSecret } from '#common';
import { type ApiKey, isWellFormedId, type Project } from '#store';
import type { ValidationRoute } from '#validation';
import { readKeySecret } from './key-secret-input.ts';
import type { Lookup } from './lookup-cache.ts';
import { refuse } from './refusal.ts';
import type { ApiAuthResult } from './types.ts';

/**
 * Key/secret authentication (the spec's other method; codes of the public API). After the
 * syntactic checks (key-secret-input.ts): 1001 unknown key → 1006 wrong secret (constant-time
 * hash compares of the current secret and of the previous one, which counts until its rotation's
 * overlap ends) → 1001 again if the key is disabled, or its project no longer exists or its
 * account is disabled. The key and the secret are never logged.
 *
 * Scopes: a key carries none. It grants every scope, because every plan includes all three
 * services; OAuth scopes narrow what one client may do, they are not a plan limit.
 */
export async function authenticateKeySecret(
  apiKeys: Lookup<ApiKey>,
  projects: Lookup<Project>,
  query: URLSearchParams,
  authorization: string | undefined,
  route: ValidationRoute,
  log: Logger,
  clock: Clock,
): Promise<ApiAuthResult> {
  const input = readKeySecret(query, authorization);
  if (!input.ok) {
    const refusal = refuse(input.kind, route, input.message);
    log.info({ via: 'key', code: refusal.body.error_code }, 'api auth refused');
    return refusal;
  }
  // A key no key can be (a NUL byte, which PostgreSQL refuses outright) names none: unknown, no query.
  const apiKey = isWellFormedId(input.key) ? await apiKeys(input.key) : null;
  if (apiKey === null) return refused('key_not_found', route, log, 'unknown key');
  // The current secret, or the previous one until its rotation's overlap ends (both compared).
  if (!verifyRotatingSecret(input.secret, apiKey.secretHash, apiKey.previousSecret, clock.now()))
    return refused('invalid_credentials', route, log, 'secret mismatch', apiKey.projectId);
  // A disabled key is answered as an unknown one, and only to its secret's holder; the log says why.
  if (!apiKey.enabled) return refused('key_not_found', route, log, 'key disabled', apiKey.projectId);
  const project = await projects(apiKey.projectId);
  if (project === null) return refused('key_not_found', route, log, 'project gone', apiKey.projectId);
  // A disabled account's keys are refused like unknown ones; the log says why.
  if (!project.accountEnabled) return refused('key_not_found', route, log, 'account disabled', apiKey.projectId);
  return { ok: true, projectId: apiKey.projectId, via: 'key', scopes: SCOPES };
}

function refused(
  kind: 'key_not_found' | 'invalid_credentials',
  route: ValidationRoute,
  log: Logger,
  detail: string,
  projectId?: string,
): ApiAuthResult {
  const refusal = refuse(kind, route);
  log.info({ via: 'key', code: refusal.body.error_code, detail, projectId }, 'api auth refused');
  return refusal;
}
