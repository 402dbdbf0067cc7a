import type { Clock, Logger } from '#common';
import { activityStore } from './activity.ts';
import { accountStore } from './accounts.ts';
import { apiKeyStore } from './api-keys.ts';
import type { Backend } from './backend.ts';
import { clientIntrospectStore } from './client-introspect.ts';
import { clientStore } from './clients.ts';
import { invitationStore } from './invitations.ts';
import { passkeyStore } from './passkeys.ts';
import { peopleStore } from './people.ts';
import { portalSessionStore } from './portal-sessions.ts';
import { projectStore } from './projects.ts';
import { rateLimitStore, usageStore } from './rate-limits.ts';
import { secondFactorStore } from './second-factors.ts';
import type { RepositoryContext } from './repository-context.ts';
import { revocationStore } from './revocations.ts';
import { secretStore } from './secret-rotation.ts';
import { signingKeyStore } from './signing-keys.ts';
import { notifyChange, type StoreChange, type StoreChangeKind } from './store-change.ts';
import type { Store } from './types.ts';
import { usedJtiStore } from './used-jtis.ts';

/**
 * Binds every repository to one backend; the SQL is the same for both. Every change a
 * replica may have cached is announced once committed (store-change.ts): to this process at
 * once, to the others by NOTIFY. A NOTIFY that fails is logged, not thrown (the change is
 * committed; the others read it again on their timers).
 */
export function createStore({ kind, runner: db, signal }: Backend, clock: Clock, log?: Logger): Store {
  let closed: Promise<void> | null = null;
  const announce = async (change: StoreChange) => {
    signal.changed(change);
    if (kind === 'embedded') return;
    await notifyChange(db, change).catch((error: unknown) =>
      log?.warn({ err: error, change }, 'store change committed but not announced to other replicas'),
    );
  };
  /** Runs a change and, once it committed (and `id` names what changed), announces it. */
  const changing = async <T>(work: Promise<T>, kindOf: StoreChangeKind, id: (result: T) => string | null) => {
    const result = await work;
    const changed = id(result);
    if (changed !== null || kindOf === 'signing_keys') await announce({ kind: kindOf, id: changed });
    return result;
  };
  const context: RepositoryContext = { db, clock, signal, changing };
  return {
    kind,
    ...accountStore(context),
    ...projectStore(context),
    ...clientStore(context),
    ...clientIntrospectStore(context),
    ...usedJtiStore(context),
    ...apiKeyStore(context),
    ...signingKeyStore(context),
    ...revocationStore(context),
    onChange: (listener) => signal.subscribeChanges(listener),
    ...portalSessionStore(context),
    ...peopleStore(context),
    ...invitationStore(context),
    ...rateLimitStore(context),
    ...usageStore(context),
    ...activityStore(context),
    ...secondFactorStore(context),
    ...passkeyStore(context),
    ...secretStore(context),

    ping: async () => void (await db.query('SELECT 1')),

    close() {
      closed ??= signal.close().finally(() => db.close());
      return closed;
    },
  };
}
