import { activityRoutes } from './pages/activity.ts';
import { apiKeyDeleteRoutes } from './pages/api-key-delete.ts';
import { apiKeyStateRoutes } from './pages/api-key-state.ts';
import { apiKeyRoutes } from './pages/api-keys.ts';
import { clientDeleteRoutes } from './pages/client-delete.ts';
import { clientSecretRoutes } from './pages/client-secret.ts';
import { apiKeySecretRoutes } from './pages/api-key-secret.ts';
import { clientSettingsRoutes } from './pages/client-settings.ts';
import { clientStateRoutes } from './pages/client-state.ts';
import { invitationRoutes } from './pages/invitations.ts';
import { limitsRoutes } from './pages/limits.ts';
import { consoleLoginRoutes } from './pages/login.ts';
import { clientRoutes } from './pages/oauth-clients.ts';
import { passkeySetupRoutes } from './pages/passkey-setup.ts';
import { passkeySignInRoutes } from './pages/passkey-sign-in.ts';
import { peopleRoutes } from './pages/people.ts';
import { projectRoutes } from './pages/project.ts';
import { projectsRoutes } from './pages/projects.ts';
import { sessionRoutes } from './pages/sessions.ts';
import { settingsRoutes } from './pages/settings.ts';
import { secondStepRoutes } from './pages/second-step.ts';
import { signInRoutes } from './pages/sign-in.ts';
import { signingKeyRoutes } from './pages/signing-keys.ts';
import { tokenRoutes } from './pages/tokens.ts';
import { twoFactorRoutes } from './pages/two-factor.ts';
import { twoFactorRuleRoutes } from './pages/two-factor-rule.ts';
import { twoFactorSetupRoutes } from './pages/two-factor-setup.ts';
import { usageRoutes } from './pages/usage.ts';
import type { PortalRoute } from './routing.ts';

/** What every signed-in site has: projects and their credentials, and revoking a token. */
const PROJECT_ROUTES: readonly PortalRoute[] = [
  ...projectsRoutes,
  ...projectRoutes,
  ...usageRoutes,
  ...apiKeyRoutes,
  ...apiKeyStateRoutes,
  ...apiKeyDeleteRoutes,
  ...apiKeySecretRoutes,
  ...clientRoutes,
  ...clientStateRoutes,
  ...clientDeleteRoutes,
  ...clientSettingsRoutes,
  ...clientSecretRoutes,
  ...tokenRoutes,
];

/** The account portal (`/portal`): people of the accounts, each seeing their own. */
export const PEOPLE_ROUTES: readonly PortalRoute[] = [
  ...signInRoutes,
  ...passkeySignInRoutes,
  ...secondStepRoutes,
  ...invitationRoutes,
  ...settingsRoutes,
  ...twoFactorRoutes,
  ...twoFactorSetupRoutes,
  ...passkeySetupRoutes,
  ...twoFactorRuleRoutes,
  ...sessionRoutes,
  ...peopleRoutes,
  ...activityRoutes,
  ...PROJECT_ROUTES,
];

/** The operator's console (`/console`): every account, and the signing keys. */
export const CONSOLE_ROUTES: readonly PortalRoute[] = [
  ...consoleLoginRoutes,
  ...PROJECT_ROUTES,
  ...limitsRoutes,
  ...signingKeyRoutes,
];
