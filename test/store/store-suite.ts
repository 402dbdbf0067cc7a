import { afterAll, beforeAll, describe } from 'vitest';
import type { Store } from '#store';
import { fakeClock, type StoreHarness } from './harness.ts';
import { accountCases } from './cases/accounts.ts';
import { activityCases } from './cases/activity.ts';
import { apiKeyCases } from './cases/api-keys.ts';
import { changeCases } from './cases/changes.ts';
import { clientCases } from './cases/clients.ts';
import { clientIntrospectCases } from './cases/client-introspect.ts';
import { lifecycleCases } from './cases/lifecycle.ts';
import { peopleCases } from './cases/people.ts';
import { policyChangeCases } from './cases/policy-changes.ts';
import { portalSessionCases } from './cases/portal-sessions.ts';
import { projectCases } from './cases/projects.ts';
import { revocationCases } from './cases/revocations.ts';
import { passkeyCases } from './cases/passkeys.ts';
import { secondFactorCases } from './cases/second-factors.ts';
import { secretRotationCases } from './cases/secret-rotation.ts';
import { signingKeyCases } from './cases/signing-keys.ts';
import { usedJtiCases } from './cases/used-jtis.ts';

/** What every case gets: the open store (replaced on restart), its harness and clock. */
export interface SuiteContext {
  store: Store;
  harness: StoreHarness;
  clock: ReturnType<typeof fakeClock>;
}

export const START_MS = 1_800_000_000_000;

/** The one store suite, run against the embedded store and PostgreSQL alike. */
export function storeSuite(makeHarness: () => Promise<StoreHarness>): void {
  const context = { clock: fakeClock(START_MS) } as SuiteContext;

  beforeAll(async () => {
    context.harness = await makeHarness();
    context.store = await context.harness.open(context.clock);
  });

  afterAll(async () => {
    await context.store?.close();
    await context.harness?.dispose();
  });

  describe('accounts', () => accountCases(context));
  describe('account activity', () => activityCases(context));
  describe('projects', () => projectCases(context));
  describe('OAuth clients', () => clientCases(context));
  describe('OAuth clients: the introspection permission', () => clientIntrospectCases(context));
  describe('API keys', () => apiKeyCases(context));
  describe('secret rotation', () => secretRotationCases(context));
  describe('signing keys', () => signingKeyCases(context));
  describe('revocations', () => revocationCases(context));
  describe('portal sessions', () => portalSessionCases(context));
  describe('used JWT ids and client key sets', () => usedJtiCases(context));
  describe('people and invitations', () => peopleCases(context));
  describe('second factors', () => secondFactorCases(context));
  describe('passkeys', () => passkeyCases(context));
  describe('change announcements', () => changeCases(context));
  describe('the rate-limit policy change log', () => policyChangeCases(context));
  describe('lifecycle', () => lifecycleCases(context));
}
