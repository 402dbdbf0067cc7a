import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import {
  type Answer,
  arrivals,
  type CreatedClient,
  type Endpoint,
  jwtHeader,
  PHONE_PATH,
  report,
  type ScaleOut,
} from './fixture.ts';

/**
 * Each kind of change made through replica 1's admin API holds on replica 2 within 1 s: replica 2
 * has cached what changed (it answered for it just before), and only the store's change
 * announcement can make it read again that fast (its caches live 1 to 10 s).
 */
const BOUND_MS = 1000;

export function changeCases(stack: () => ScaleOut): void {
  describe('each kind of change made on replica 1 holds on replica 2 within 1 s', () => {
    /** When replica 2 first gives the answer `done` wants, from `since`. */
    const onReplica2 = async (what: string, ask: (at: Endpoint) => Promise<Answer>, done: (a: Answer) => boolean) => {
      const since = performance.now();
      const [seen] = await arrivals([stack().replicas[1]], ask, done, { since, windowMs: 12_000, intervalMs: 50 });
      report(what, seen ? [seen] : []);
      expect({ what, answer: seen?.answer, inTime: seen?.ms !== null && (seen?.ms ?? BOUND_MS) < BOUND_MS }).toEqual({
        what,
        answer: seen?.answer,
        inTime: true,
      });
      return seen?.answer;
    };
    const keyCall = (at: Endpoint, key: { key: string; secret: string }) =>
      fetch(`${at.url}${PHONE_PATH}&key=${encodeURIComponent(key.key)}&secret=${encodeURIComponent(key.secret)}`).then(
        async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }),
      );

    it('client disable and enable', async () => {
      const s = stack();
      const [r1, r2] = s.replicas;
      const { client } = await s.newClient();
      await s.token(client, r2);
      expect((await s.adminApi('POST', `/clients/${client.client_id}/disable`, undefined, r1)).status).toBe(200);
      await onReplica2(
        'client disabled: token refused',
        (at) => s.tokenRequest(client, at),
        (a) => a.status === 401,
      );
      expect((await s.adminApi('POST', `/clients/${client.client_id}/enable`, undefined, r1)).status).toBe(200);
      await onReplica2(
        'client enabled: token issued',
        (at) => s.tokenRequest(client, at),
        (a) => a.status === 200,
      );
    });

    it('account plan change, account disable and enable', async () => {
      const s = stack();
      const [r1, r2] = s.replicas;
      const { project, client } = await s.newClient();
      const accountId = String((await s.adminApi('GET', `/projects/${project.id}`, undefined, r1)).body.account_id);
      await s.token(client, r2);
      const plan = (p: string) => s.adminApi('POST', `/accounts/${accountId}/plan`, { plan: p }, r1);
      expect((await plan('free')).status).toBe(200);
      await onReplica2(
        'plan changed to free: token refused',
        (at) => s.tokenRequest(client, at),
        (a) => a.status === 400 && a.body.error === 'unauthorized_client',
      );
      expect((await plan('business')).status).toBe(200);
      await onReplica2(
        'plan changed to business: token issued',
        (at) => s.tokenRequest(client, at),
        (a) => a.status === 200,
      );
      expect((await s.adminApi('POST', `/accounts/${accountId}/disable`, undefined, r1)).status).toBe(200);
      await onReplica2(
        'account disabled: token refused',
        (at) => s.tokenRequest(client, at),
        (a) => a.status === 401,
      );
      expect((await s.adminApi('POST', `/accounts/${accountId}/enable`, undefined, r1)).status).toBe(200);
      await onReplica2(
        'account enabled: token issued',
        (at) => s.tokenRequest(client, at),
        (a) => a.status === 200,
      );
    });

    it('API keys: a new key, and the keys of a deleted project', async () => {
      const s = stack();
      const [r1, r2] = s.replicas;
      const { project } = await s.newClient();
      const created = await s.adminApi('POST', `/projects/${project.id}/apikeys`, undefined, r1);
      expect(created.status).toBe(201);
      const key = { key: String(created.body.key), secret: String(created.body.secret) };
      await onReplica2(
        'API key created: accepted',
        (at) => keyCall(at, key),
        (a) => a.status === 200,
      );
      expect((await keyCall(r2, key)).status).toBe(200); // replica 2 caches the key and its project
      expect((await s.adminApi('DELETE', `/projects/${project.id}`, undefined, r1)).status).toBe(200);
      await onReplica2(
        'project deleted: its API key refused',
        (at) => keyCall(at, key),
        (a) => a.status !== 200,
      );
    });

    it('project deletion', async () => {
      const s = stack();
      const [r1, r2] = s.replicas;
      const { project, client } = await s.newClient();
      const token = await s.token(client, r2);
      expect((await s.call(PHONE_PATH, token, r2)).status).toBe(200);
      expect((await s.adminApi('DELETE', `/projects/${project.id}`, undefined, r1)).status).toBe(200);
      await onReplica2(
        'project deleted: token request refused',
        (at) => s.tokenRequest(client, at),
        (a) => a.status !== 200,
      );
      await onReplica2(
        'project deleted: its token answered 1025',
        (at) => s.call(PHONE_PATH, token, at),
        (a) => a.body.error_code === '1025',
      );
    });

    it('token introspection: a revocation, a client disable, a project deletion, a withdrawn permission', async () => {
      const s = stack();
      const [r1, r2] = s.replicas;
      const { project, client: subject } = await s.newClient();
      const rs = await s.admin<CreatedClient>(
        ['client', 'create', '--project', project.id, '--name', 'rs', '--scopes', 'phone', '--introspect'],
        r1,
      );
      // openid-client discovers the issuer (PUBLIC_URL, gateway 1) and introspects at `at`.
      const issuer = s.gateways[0].url;
      const config = await oidc.discovery(
        new URL(issuer),
        rs.client_id,
        undefined,
        oidc.ClientSecretBasic(rs.client_secret),
        {
          algorithm: 'oauth2',
          execute: [oidc.allowInsecureRequests],
        },
      );
      const introspect =
        (token: string) =>
        async (at: Endpoint): Promise<Answer> => {
          config[oidc.customFetch] = (url, options) => fetch(url.replace(issuer, at.url), options as RequestInit);
          return { status: 200, body: await oidc.tokenIntrospection(config, token) };
        };
      const inactive = (a: Answer) => a.body.active === false;

      const revoked = await s.token(subject, s.gateways[0]);
      expect((await introspect(revoked)(r2)).body).toMatchObject({ active: true, client_id: subject.client_id });
      expect((await s.adminApi('POST', '/tokens/revoke', { token: revoked }, r1)).status).toBe(200);
      await onReplica2('token revoked: introspected inactive', introspect(revoked), inactive);

      const ofDisabled = await s.token(subject, r2);
      expect((await introspect(ofDisabled)(r2)).body.active).toBe(true);
      expect((await s.adminApi('POST', `/clients/${subject.client_id}/disable`, undefined, r1)).status).toBe(200);
      await onReplica2('client disabled: its token introspected inactive', introspect(ofDisabled), inactive);

      const other = await s.newClient();
      const ofDeleted = await s.token(other.client, r2);
      expect((await introspect(ofDeleted)(r2)).body.active).toBe(true);
      expect((await s.adminApi('DELETE', `/projects/${other.project.id}`, undefined, r1)).status).toBe(200);
      await onReplica2('project deleted: its token introspected inactive', introspect(ofDeleted), inactive);

      const third = await s.newClient();
      const live = await s.token(third.client, r2);
      expect((await s.adminApi('POST', `/clients/${rs.client_id}/introspect`, { allowed: false }, r1)).status).toBe(
        200,
      );
      await onReplica2(
        'introspect permission withdrawn: refused 403',
        (at) =>
          introspect(live)(at).catch((error: unknown) => ({
            status: (error as { status?: number }).status ?? 0,
            body: {},
          })),
        (a) => a.status === 403,
      );
    });

    it('emergency key rotation', async () => {
      const s = stack();
      const [r1, r2] = s.replicas;
      const { client } = await s.newClient();
      await s.token(client, r2);
      const rotated = await s.adminApi('POST', '/keys/rotate', { now: true }, r1);
      expect(rotated.status).toBe(200);
      const kid = String(rotated.body.kid);
      const answer = await onReplica2(
        'keys rotated (--now): replica 2 signs with the new key',
        (at) => s.tokenRequest(client, at),
        (a) => typeof a.body.access_token === 'string' && jwtHeader(a.body.access_token).kid === kid,
      );
      for (const gateway of s.gateways)
        expect((await s.call(PHONE_PATH, String(answer?.body.access_token), gateway)).status).toBe(200);
    });
  });
}
