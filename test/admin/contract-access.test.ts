import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, ADMIN_OPERATIONS, type AdminService, createAdminService, type OperationName } from '#admin';
import { parseInput } from '#admin';
import type { Role } from '#store';
import { type Harness, logSink, startHarness } from '../issuer/harness.ts';

const operator: Actor = { kind: 'operator', address: '127.0.0.1' };
const person = (roles: Record<string, Role>): Actor => ({
  kind: 'person',
  userId: 'usr_someone',
  email: 'someone@example.com',
  roles,
  session: 'label',
  address: '127.0.0.2',
});

const claims = (clientId: string) =>
  Buffer.from(JSON.stringify({ client_id: clientId, jti: 'j' })).toString('base64url');

/** The highest role that `access` does not allow: the operator's operations refuse even an owner. */
const BELOW = { operator: 'owner', owner: 'developer', write: 'viewer' } as const;

/**
 * The contract's `access` of each operation says who may call it; the service enforces it. Each
 * operation is called, on one business account's project, client and API key, by a person whose
 * role is just below what the table says (refused, 403), and each read by a viewer (answered).
 */
describe('who may call each admin operation, as the contract declares', () => {
  let h: Harness;
  let service: AdminService;
  let sample: Record<OperationName, { id: string; input: unknown }>;
  let accountId: string;
  beforeAll(async () => {
    h = await startHarness();
    service = createAdminService({ store: h.store, issuer: h.issuer, log: logSink().log });
    const project = await h.store.createProject({ name: 'p', plan: 'business' });
    accountId = project.accountId;
    const client = (await h.issuer.createClient({ projectId: project.id, name: 'c', scopes: ['phone'] })).client;
    const key = (await service.createApiKey(operator, project.id)).apiKey.key;
    const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
    const [a, p, c] = [accountId, project.id, client.clientId];
    sample = {
      createAccount: { id: '', input: { name: 'n', plan: 'free' } },
      listAccounts: { id: '', input: undefined },
      getAccount: { id: a, input: undefined },
      accountActivity: { id: a, input: undefined },
      setAccountPlan: { id: a, input: { plan: 'business' } },
      disableAccount: { id: a, input: undefined },
      enableAccount: { id: a, input: undefined },
      createAccountProject: { id: a, input: { name: 'n' } },
      invitePerson: { id: a, input: { email: 'new@example.com', role: 'viewer' } },
      createProject: { id: '', input: { name: 'n', plan: 'free' } },
      listProjects: { id: '', input: undefined },
      getProject: { id: p, input: undefined },
      deleteProject: { id: p, input: undefined },
      getProjectLimits: { id: p, input: undefined },
      setProjectLimits: { id: p, input: { override: { monthlyQuota: 10 } } },
      clearProjectLimits: { id: p, input: undefined },
      projectUsage: { id: p, input: {} },
      createApiKey: { id: p, input: undefined },
      disableApiKey: { id: key, input: undefined },
      enableApiKey: { id: key, input: undefined },
      createClient: { id: p, input: { name: 'n', scopes: ['phone'] } },
      listClients: { id: p, input: undefined },
      setClientKeys: { id: c, input: { jwks: { keys: [{ ...jwk, kid: 'k1' }] } } },
      setClientDpop: { id: c, input: { required: true } },
      setClientIntrospect: { id: c, input: { allowed: true } },
      disableClient: { id: c, input: undefined },
      enableClient: { id: c, input: undefined },
      getClient: { id: c, input: undefined },
      rotateClientSecret: { id: c, input: { overlap: '1h' } },
      retireClientSecret: { id: c, input: undefined },
      rotateApiKeySecret: { id: key, input: {} },
      retireApiKeySecret: { id: key, input: undefined },
      // Unsigned: the role is checked before the issuer checks the signature.
      revokeToken: { id: '', input: { token: `e30.${claims(c)}.sig` } },
      listKeys: { id: '', input: undefined },
      rotateKeys: { id: '', input: {} },
      reloadAddresses: { id: '', input: undefined },
      setAccountRequire2fa: { id: a, input: { require_2fa: false } },
      resetPersonFactors: { id: '', input: { email: 'someone@example.com' } },
    };
  });
  afterAll(async () => {
    await h?.close();
  });

  const call = (name: OperationName, actor: Actor) => {
    const op = ADMIN_OPERATIONS[name];
    const { id, input } = sample[name];
    // The table entry of `name`, called as the admin API calls it (TypeScript cannot pair the two by name).
    return op.run(service, actor, {
      id,
      input: op.input === undefined ? undefined : parseInput(op.input, input),
    } as never);
  };

  it('refuses each change to a person whose role is below the one declared', async () => {
    const refused: string[] = [];
    for (const [name, op] of Object.entries(ADMIN_OPERATIONS) as [
      OperationName,
      (typeof ADMIN_OPERATIONS)[OperationName],
    ][]) {
      if (op.access === 'read') continue;
      const outcome = await call(name, person({ [accountId]: BELOW[op.access] })).then(
        () => 'answered',
        (error: { kind?: string }) => error.kind,
      );
      if (outcome !== 'forbidden') refused.push(`${name} (${op.access}) as ${BELOW[op.access]}: ${outcome}`);
    }
    expect(refused).toEqual([]);
  });

  it('answers each read to a viewer of the account', async () => {
    for (const [name, op] of Object.entries(ADMIN_OPERATIONS) as [
      OperationName,
      (typeof ADMIN_OPERATIONS)[OperationName],
    ][]) {
      if (op.access !== 'read') continue;
      await expect(call(name, person({ [accountId]: 'viewer' })), name).resolves.toBeDefined();
    }
  });
});
