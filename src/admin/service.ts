import {
  createAccount,
  createAccountProject,
  getAccount,
  listAccounts,
  setAccountEnabled,
  setAccountPlan,
} from './accounts.ts';
import { accountActivity } from './account-activity.ts';
import { acceptInvitation } from './people/invitation-accept.ts';
import { invitePerson, listPeople, removePerson, setPersonRole } from './people/members.ts';
import { changeOwnPassword } from './people/own-password.ts';
import { confirmPasskeySetup, startPasskeySetup } from './people/passkey-enrol.ts';
import { confirmTotpSetup, startTotpSetup } from './people/second-factor-enrol.ts';
import { listOwnFactors, removeOwnFactor, renewRecoveryCodes } from './people/second-factor-list.ts';
import { getAccountRequire2fa, resetPersonFactors, setAccountRequire2fa } from './people/second-factor-policy.ts';
import { reloadAddresses } from './addresses.ts';
import { retireApiKeySecret, rotateApiKeySecret } from './api-key-secrets.ts';
import { createApiKey, deleteApiKey, listApiKeys, setApiKeyEnabled } from './api-keys.ts';
import {
  createClient,
  deleteClient,
  findClient,
  listClients,
  setClientDpop,
  setClientEnabled,
  setClientKeys,
} from './clients.ts';
import { setClientIntrospect } from './client-introspect.ts';
import { getClientDetail, retireClientSecret, rotateClientSecret } from './client-secrets.ts';
import type { AdminContext } from './context.ts';
import { asAdminError } from './errors.ts';
import { listKeys, rotateKeys } from './keys.ts';
import { createProject, deleteProject, findProject, getProject, listProjects } from './projects.ts';
import { clearProjectLimits, getProjectLimits, projectUsage, setProjectLimits } from './rate-limits.ts';
import { revokeToken } from './tokens.ts';

/** Every operation on a running upstream. (`importAddressData` needs none: it runs beside the files.) */
const OPERATIONS = {
  accountActivity,
  invitePerson,
  acceptInvitation,
  changeOwnPassword,
  startTotpSetup,
  confirmTotpSetup,
  startPasskeySetup,
  confirmPasskeySetup,
  listOwnFactors,
  removeOwnFactor,
  renewRecoveryCodes,
  setAccountRequire2fa,
  getAccountRequire2fa,
  resetPersonFactors,
  listPeople,
  setPersonRole,
  removePerson,
  createAccount,
  listAccounts,
  getAccount,
  setAccountPlan,
  setAccountEnabled,
  createAccountProject,
  createProject,
  listProjects,
  findProject,
  getProject,
  deleteProject,
  createClient,
  listClients,
  findClient,
  setClientEnabled,
  deleteClient,
  setClientKeys,
  setClientDpop,
  setClientIntrospect,
  getClientDetail,
  rotateClientSecret,
  retireClientSecret,
  revokeToken,
  listKeys,
  rotateKeys,
  createApiKey,
  deleteApiKey,
  setApiKeyEnabled,
  listApiKeys,
  rotateApiKeySecret,
  retireApiKeySecret,
  reloadAddresses,
  getProjectLimits,
  setProjectLimits,
  clearProjectLimits,
  projectUsage,
};

type Operation = (ctx: AdminContext, ...args: never[]) => Promise<unknown>;
type Bound<F> = F extends (ctx: AdminContext, ...args: infer A) => Promise<infer R>
  ? (...args: A) => Promise<R>
  : never;

/**
 * The admin operations on one upstream's store and issuer. Each takes the actor first, then its
 * parsed input (an id, or the output of its schema), and resolves with a plain result or rejects
 * with an AdminError of a stable kind (ADMIN_ERRORS gives its status); any other rejection is a
 * failure (500). The admin routes and the portal call the same service.
 */
export type AdminService = { readonly [K in keyof typeof OPERATIONS]: Bound<(typeof OPERATIONS)[K]> };

export function createAdminService(ctx: AdminContext): AdminService {
  const service: Record<string, unknown> = {};
  for (const [name, operation] of Object.entries(OPERATIONS) as Array<[string, Operation]>) {
    service[name] = async (...args: never[]) => {
      try {
        return await operation(ctx, ...args);
      } catch (error) {
        // The issuer's and the store's refusals (a concurrent change beat our checks) become ours.
        throw asAdminError(error) ?? error;
      }
    };
  }
  return Object.freeze(service) as AdminService;
}
