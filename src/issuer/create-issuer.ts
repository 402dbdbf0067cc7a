import type { IncomingMessage, ServerResponse } from 'node:http';
import { createDpopNonces, createVerifier } from '#auth';
import { epochSeconds, generateSecret, hashSecret, systemClock } from '#common';
import { ClientDirectory } from './clients/client-directory.ts';
import { checkIssuerConfig } from './config-check.ts';
import { ClientRevocationError } from './issuer-errors.ts';
import { metadataDocument, metadataPaths } from './endpoints/metadata.ts';
import { PATHS } from './endpoints/paths.ts';
import { type OAuthHandler, oauthRoute } from './endpoints/oauth-route.ts';
import { servePublicDocument } from './endpoints/public-document.ts';
import { introspectEndpoint } from './endpoints/introspect.ts';
import { revokeEndpoint } from './endpoints/revoke.ts';
import { createInspector } from './introspection/inspect.ts';
import { tokenEndpoint } from './endpoints/token.ts';
import { KeyWrapper } from './keys/envelope.ts';
import { keyInfo } from './keys/key-info.ts';
import { Keyring } from './keys/keyring.ts';
import { localKeyResolver } from './keys/local-key-resolver.ts';
import { KEY_RELOAD_INTERVAL_MS, REVOCATION_PRUNE_INTERVAL_MS } from './limits.ts';
import { BruteForceGuard } from './oauth/brute-force.ts';
import { ClientAssertions } from './oauth/client-assertion.ts';
import { DEFAULT_TRUSTED_PROXIES, trustedProxies } from './oauth/trusted-proxies.ts';
import { adminRevoke } from './revocation/admin-revoke.ts';
import { RevocationFeed } from './revocation/feed.ts';
import { LiveRevocations } from './revocation/live-revocations.ts';
import { RevocationSync } from './revocation/revocation-sync.ts';
import { Revoker } from './revocation/revoker.ts';
import { followStoreChanges } from './store-changes.ts';
import type { Issuer, IssuerDeps } from './types.ts';

/** Every algorithm the issuer signs with: a key keeps its own after SIGNING_ALG changes. */
const INTROSPECTION_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'] as const;
const INTROSPECTION_TOKEN_CACHE = { maxEntries: 10_000, maxBytes: 8 * 1024 * 1024 };

/**
 * Builds the issuer: loads (or creates) the signing keys, syncs the live revocations, and
 * wires the endpoints. Throws at start-up on bad configuration (TypeError) or on encrypted
 * keys that cannot be decrypted (KeyEncryptionError).
 */
export async function createIssuer(deps: IssuerDeps): Promise<Issuer> {
  const { store, config } = deps;
  checkIssuerConfig(config);
  const proxies = trustedProxies(config.trustedProxies ?? DEFAULT_TRUSTED_PROXIES);
  const clock = deps.clock ?? systemClock;
  const log = deps.log.child({ module: 'issuer' });
  const wrapper = config.keyEncryptionKey ? new KeyWrapper(config.keyEncryptionKey) : null;
  const keyring = new Keyring({ store, alg: config.algorithm, wrapper, clock, log });
  await keyring.load();
  const clients = new ClientDirectory(store, clock);
  const live = new LiveRevocations();
  const sync = new RevocationSync({ store, live, clock, log, onClientRevoked: (id) => clients.evict(id) });
  await sync.start();
  const unfollow = followStoreChanges({ store, clients, keyring, sync, log });
  const revoker = new Revoker({ store, sync, clock, log });
  const feed = new RevocationFeed({ store, feedToken: config.feedToken, clock, log, keys: keyring });
  const { issuer, audience } = config;
  const assertions = new ClientAssertions({ store, issuer, clock });
  const auth = { clients, guard: new BruteForceGuard(clock), assertions, trustedProxies: proxies, log, clock };
  const tokens = { keyring, revocations: live, issuer, audience, clock };
  const metadata = metadataDocument(issuer);
  const nonces = createDpopNonces({ mode: 'off', ...config.dpopNonce, now: () => clock.now() });
  const dpop = { store, issuer, clock, log, nonces };
  const keyResolver = localKeyResolver(keyring, clock);
  // The plugin the gateways and the upstream run, over this replica's own keys and revocations.
  const verifier = createVerifier({
    issuer,
    audience,
    algorithms: INTROSPECTION_ALGORITHMS,
    keys: keyResolver,
    revocations: live,
    clock,
    // Introspection is not the hot path the gateways' caches are sized for: a small cache bounds its memory.
    tokenCache: INTROSPECTION_TOKEN_CACHE,
  });
  const inspect = createInspector({ verifier, clients, issuer, audience });
  const routes = new Map<string, OAuthHandler>([
    [PATHS.token, oauthRoute((req, res) => tokenEndpoint(req, res, { ...auth, tokens, dpop }), log)],
    [
      PATHS.revoke,
      oauthRoute(
        (req, res) =>
          revokeEndpoint(req, res, { ...auth, keyring, revoker, revocations: live, issuer, audience, clock }),
        log,
      ),
    ],
    [
      PATHS.introspect,
      oauthRoute((req, res) => introspectEndpoint(req, res, { ...auth, inspect, adminToken: config.adminToken }), log),
    ],
    [
      PATHS.jwks,
      async (req, res) =>
        servePublicDocument(req, res, { ...keyring.keySet, contentType: 'application/jwk-set+json; charset=utf-8' }),
    ],
    ...metadataPaths(issuer).map((path): [string, OAuthHandler] => [
      path,
      async (req, res) => servePublicDocument(req, res, metadata),
    ]),
  ]);
  const background = (what: string, work: () => Promise<unknown>) => () => {
    work().catch((error: unknown) => log.error({ err: error }, `${what} failed`));
  };
  const prune = async () => {
    const now = epochSeconds(clock);
    live.prune(now);
    await store.pruneRevocations(now);
    await store.pruneJtis(now);
  };
  const timers = [
    setInterval(
      background('key reload', () => keyring.load()),
      KEY_RELOAD_INTERVAL_MS,
    ),
    setInterval(
      background('revocation pruning', () => prune()),
      REVOCATION_PRUNE_INTERVAL_MS,
    ),
  ];
  for (const timer of timers) timer.unref();

  return {
    async handle(req: IncomingMessage, res: ServerResponse) {
      const url = req.url ?? '';
      const path = url.includes('?') ? url.slice(0, url.indexOf('?')) : url;
      // With or without one trailing slash, as every route of the service answers (c623e93).
      const route =
        routes.get(path) ?? (path.length > 1 && path.endsWith('/') ? routes.get(path.slice(0, -1)) : undefined);
      if (!route) return false;
      await route(req, res);
      return true;
    },
    handleFeed: (req, res) => feed.handle(req, res),
    async createClient(input) {
      const clientSecret = generateSecret();
      const client = await store.createClient({ ...input, secretHash: hashSecret(clientSecret) });
      log.info({ clientId: client.clientId, projectId: client.projectId }, 'client created');
      return { client, clientSecret };
    },
    async createKeyClient(input) {
      const client = await store.createClient(input);
      log.info({ clientId: client.clientId, projectId: client.projectId, auth: 'private_key_jwt' }, 'client created');
      return client;
    },
    async setClientRequireDpop(clientId, required) {
      const client = await store.setClientRequireDpop(clientId, required);
      clients.evict(clientId);
      if (client) log.info({ clientId, required }, 'client DPoP requirement changed');
      return client;
    },
    async setClientJwks(clientId, jwks) {
      const client = await store.setClientJwks(clientId, jwks);
      clients.evict(clientId);
      if (client) log.info({ clientId, kids: jwks.keys.map((key) => key['kid']) }, 'client key set replaced');
      return client;
    },
    async setClientEnabled(clientId, enabled) {
      const client = await store.setClientEnabled(clientId, enabled);
      clients.evict(clientId);
      if (client && !enabled)
        await revoker
          .revokeClient(clientId, client.generation)
          .catch((error: unknown) => Promise.reject(new ClientRevocationError(clientId, error)));
      return client;
    },
    async revokeClientTokens(clientId) {
      // Raised like a disable raises it: every token issued so far carries a lower generation.
      const generation = await store.raiseClientGeneration(clientId);
      clients.evict(clientId);
      if (generation !== null) await revoker.revokeClient(clientId, generation);
    },
    revokeToken: (jwtOrJti) => adminRevoke(jwtOrJti, { keyring, revoker, issuer, audience, clock, log }),
    async listKeys() {
      await keyring.load();
      const keys = keyring.keys;
      return keys.map((key) => keyInfo(key, keys));
    },
    rotateKeys: (options) => keyring.rotate(options),
    keyResolver,
    revocationChecker: live,
    async close() {
      for (const timer of timers) clearInterval(timer);
      unfollow();
      sync.stop();
      feed.close();
    },
  };
}
