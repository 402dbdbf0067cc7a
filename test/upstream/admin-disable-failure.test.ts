import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, type AdminError, createAdminService } from '#admin';
import { ClientRevocationError } from '#issuer';
import { openStore, type Store } from '#store';
import { migratedDataDir } from '#test/store-template.ts';
import { createFakeClock } from '#test/fake-clock.ts';
import { adminErrorResponse } from '../../src/upstream/admin/respond.ts';
import { type Harness, logSink, postForm, startHarness, verdictOf } from '../issuer/harness.ts';

const clock = createFakeClock(Date.now() - (Date.now() % 1000));

/**
 * `client disable` stores the disable, then writes the revocation of the client's outstanding
 * tokens. When the store fails in between, the operator must learn that the tokens still work.
 */
describe('client disable when the store fails between the disable and the revocation', () => {
  let dataDir: string;
  let store: Store;
  let h: Harness;
  let failNextRevocation = false;
  beforeAll(async () => {
    dataDir = await migratedDataDir('tokengate-disable-');
    const real = await openStore({ dataDir, clock });
    store = {
      ...real,
      addRevocation(entry) {
        if (!failNextRevocation) return real.addRevocation(entry);
        failNextRevocation = false;
        return Promise.reject(new Error('Connection terminated unexpectedly'));
      },
    };
    h = await startHarness({ store, clock });
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const operator: Actor = { kind: 'operator', address: '127.0.0.1' };

  it('answers 500 saying the client is disabled but its tokens are not revoked, and disabling again revokes them', async () => {
    const { client, secret } = await h.client(['address']);
    const issued = await postForm(h.url, {
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: secret,
    });
    const token = String(issued.json['access_token']);
    const { log, lines } = logSink();
    const service = createAdminService({ store, issuer: h.issuer, log });

    failNextRevocation = true;
    const failed = await service.setClientEnabled(operator, client.clientId, false).catch((error: unknown) => error);
    expect(failed).toMatchObject({ name: 'AdminError', kind: 'incomplete', status: 500 });
    expect(adminErrorResponse(failed as AdminError)).toEqual({
      status: 500,
      body: {
        message: `client "${client.clientId}" is disabled, but revoking its outstanding tokens failed (they may still work): disable it again`,
        error_code: '1099',
        success: false,
      },
      headers: {},
    });
    expect(lines()).toContain('Connection terminated unexpectedly');
    expect((await store.getClient(client.clientId))?.enabled).toBe(false);
    expect(await verdictOf(h, token, clock)).toBe('ok');

    expect(await service.setClientEnabled(operator, client.clientId, false)).toMatchObject({
      clientId: client.clientId,
      enabled: false,
    });
    expect(await verdictOf(h, token, clock)).toBe('token_revoked');
  });

  it('tells the issuer caller the same with a ClientRevocationError', async () => {
    const { client } = await h.client(['phone']);
    failNextRevocation = true;
    await expect(h.issuer.setClientEnabled(client.clientId, false)).rejects.toBeInstanceOf(ClientRevocationError);
  });
});
