import type { PasskeyDeps } from '#admin';
import type { PortalApp } from '../routing.ts';

/** What a passkey step of the sign-in needs: the portal's store and clock, and its relying party. */
export function passkeyDeps(app: PortalApp): PasskeyDeps {
  return { store: app.store, clock: app.clock, rp: app.relyingParty() };
}
