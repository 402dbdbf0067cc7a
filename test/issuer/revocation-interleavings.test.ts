import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createRemoteKeySet,
  createRevocationFeedClient,
  createRevocationSet,
  createVerifier,
  type RemoteKeySet,
  type RevocationFeedClient,
  type Verifier,
} from '#auth';
import { systemClock } from '#common';
import { FEED_TOKEN, type Harness, postForm, startHarness, verdictOf } from './harness.ts';

/**
 * Random interleavings of issue, disable, enable and revoke across two replicas of one store,
 * checked after every step: exactly the tokens that should be valid are, at a gateway (the
 * plugin over the key set and the revocation feed of replica b, as the gateway runs it) and at
 * both replicas' own verification, and a token request succeeds exactly while its client is
 * enabled. Real clock: most steps of a run fall inside one second, the case seconds got wrong.
 */
type Step =
  | { readonly op: 'issue' | 'disable' | 'enable'; readonly client: number; readonly replica: number }
  | { readonly op: 'revoke'; readonly pick: number; readonly replica: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    op: fc.constantFrom('issue' as const, 'disable' as const, 'enable' as const),
    client: fc.nat(1),
    replica: fc.nat(1),
  }),
  fc.record({ op: fc.constant('revoke' as const), pick: fc.nat(20), replica: fc.nat(1) }),
);

let replicas: [Harness, Harness];
let keySet: RemoteKeySet;
let feed: RevocationFeedClient;
let gateway: Verifier;

beforeAll(async () => {
  const a = await startHarness();
  const b = await startHarness({ store: a.store, config: { issuer: a.config.issuer, audience: a.config.audience } });
  replicas = [a, b];
  keySet = createRemoteKeySet({ url: `${a.url}/.well-known/jwks.json`, algorithms: ['RS256'] });
  const set = createRevocationSet();
  feed = createRevocationFeedClient({ url: `${b.url}/internal/revocations`, token: FEED_TOKEN, set, waitSec: 5 });
  await Promise.all([keySet.start(), feed.start()]);
  gateway = createVerifier({
    issuer: a.config.issuer,
    audience: a.config.audience,
    algorithms: ['RS256'],
    keys: keySet,
    revocations: set,
  });
}, 60_000);
afterAll(async () => {
  feed.stop();
  keySet.stop();
  await replicas[1].close();
  await replicas[0].close();
});

interface Issued {
  readonly token: string;
  revoked: boolean;
}

describe('revocation under random interleavings across two replicas', () => {
  it('accepts exactly the tokens that should be valid, at the gateway and at both replicas, after every step', {
    timeout: 120_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        const [a] = replicas;
        const clients = await Promise.all(
          [0, 1].map(async () => {
            const { client, secret } = await a.client(['phone']);
            return { id: client.clientId, secret, enabled: true, tokens: [] as Issued[] };
          }),
        );
        const issued = () => clients.flatMap((c) => c.tokens);
        for (const s of steps) {
          const replica = replicas[s.replica] as Harness;
          if (s.op === 'revoke') {
            const target = issued()[s.pick % Math.max(1, issued().length)];
            if (!target) continue;
            await replica.issuer.revokeToken(target.token);
            target.revoked = true;
          } else {
            const client = clients[s.client] as (typeof clients)[number];
            if (s.op === 'issue') {
              const form = { grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret };
              const res = await postForm(replica.url, form);
              expect({ step: s, status: res.status === 200 ? 200 : 'refused' }).toEqual({
                step: s,
                status: client.enabled ? 200 : 'refused',
              });
              if (res.status === 200) client.tokens.push({ token: String(res.json['access_token']), revoked: false });
            } else {
              await replica.issuer.setClientEnabled(client.id, s.op === 'enable');
              client.enabled = s.op === 'enable';
              if (s.op === 'disable') for (const t of client.tokens) t.revoked = true;
            }
          }
          // Propagation to the gateway goes through the feed's long poll: allow it its second.
          await vi.waitFor(
            async () => {
              for (const t of issued()) {
                const expected = t.revoked ? 'token_revoked' : 'ok';
                const atGateway = await gateway.authorize(`Bearer ${t.token}`, { scopes: [], match: 'any' });
                const verdicts = {
                  gateway: atGateway.ok ? 'ok' : atGateway.kind,
                  a: await verdictOf(replicas[0], t.token, systemClock),
                  b: await verdictOf(replicas[1], t.token, systemClock),
                };
                expect(verdicts).toEqual({ gateway: expected, a: expected, b: expected });
              }
            },
            { timeout: 1000, interval: 10 },
          );
        }
      }),
      { numRuns: 12 },
    );
  });
});
