import { apiKeyRoutes } from './pages/api-keys.ts';
import { clientStateRoutes } from './pages/client-state.ts';
import { limitsRoutes } from './pages/limits.ts';
import { loginRoutes } from './pages/login.ts';
import { clientRoutes } from './pages/oauth-clients.ts';
import { projectRoutes } from './pages/project.ts';
import { projectsRoutes } from './pages/projects.ts';
import { signingKeyRoutes } from './pages/signing-keys.ts';
import { tokenRoutes } from './pages/tokens.ts';
import { usageRoutes } from './pages/usage.ts';
import type { PortalRoute } from './routing.ts';

export const PORTAL_ROUTES: readonly PortalRoute[] = [
  ...loginRoutes,
  ...projectsRoutes,
  ...projectRoutes,
  ...usageRoutes,
  ...limitsRoutes,
  ...apiKeyRoutes,
  ...clientRoutes,
  ...clientStateRoutes,
  ...tokenRoutes,
  ...signingKeyRoutes,
];
