import { describe, expect, it } from 'vitest';
import { createAdminClient } from '#admin/contract';

type Sent = [method: string, path: string, body?: unknown];

/** A typed client over a transport that records each request and answers `reply`. */
function clientAnswering(reply: unknown) {
  const sent: Sent[] = [];
  const client = createAdminClient(
    async (...request) => {
      sent.push(request);
      return reply;
    },
    (message) => new Error(message),
  );
  return { client, sent };
}

describe('the typed admin client', () => {
  it('sends an operation to its method and path, the id encoded, the input as the body', async () => {
    const { client, sent } = clientAnswering({ id: 'acc_1', name: 'A', plan: 'free', enabled: true });
    await client.setAccountPlan({ id: 'acc/1', input: { plan: 'free' } });
    await client.disableAccount({ id: 'acc_1' }).catch(() => undefined);
    expect(sent).toEqual([
      ['POST', '/accounts/acc%2F1/plan', { plan: 'free' }],
      ['POST', '/accounts/acc_1/disable', undefined],
    ]);
  });

  it('sends a GET’s input as its query, and nothing for an input left out', async () => {
    const usage = { project_id: 'prj_1', month: '2026-11', calls: 0, quota: null, days: [] };
    const { client, sent } = clientAnswering(usage);
    await client.projectUsage({ id: 'prj_1', input: { month: '2026-11' } });
    await client.projectUsage({ id: 'prj_1' });
    expect(sent).toEqual([
      ['GET', '/projects/prj_1/usage?month=2026-11'],
      ['GET', '/projects/prj_1/usage'],
    ]);
  });

  it('returns exactly the view: its members in its order, nothing the API added', async () => {
    const { client } = clientAnswering({ extra: 1, enabled: true, plan: 'free', name: 'A', id: 'acc_1' });
    const account = await client.createAccount({ input: { name: 'A', plan: 'free' } });
    expect(Object.keys(account)).toEqual(['id', 'name', 'plan', 'enabled']);
  });

  it('refuses an answer that is not the view, naming what it expected', async () => {
    await expect(clientAnswering('nope').client.getAccount({ id: 'acc_1' })).rejects.toThrow(
      'the admin API answered with an unexpected body (expected a JSON object)',
    );
    await expect(clientAnswering({}).client.listAccounts()).rejects.toThrow('(expected a JSON array)');
  });
});
