import { html } from '../html/escape.ts';
import type { PortalRoute } from '../routing.ts';
import { apiKeyCredential, keyFacts } from './api-key-delete.ts';
import { actor } from './common.ts';
import { actStep, confirmStep } from './credential-action.ts';

const confirmDisable = confirmStep(apiKeyCredential, ({ key }) => ({
  title: 'Disable API key',
  heading: 'Disable this API key?',
  warning: html`<strong>Calls with this key and its secret are refused from the moment it is disabled</strong> (error 1001, as for a key that does not exist), until you enable it again. The key and its secret stay as they are.`,
  facts: keyFacts(key),
  button: 'Disable API key',
  step: 'Disable API key',
}));

function setEnabled(enabled: boolean) {
  return actStep(
    apiKeyCredential,
    (r, { key }) => r.app.service.setApiKeyEnabled(actor(r), key.key, enabled),
    ({ key }) => ({
      done: `API key ${key.key} ${enabled ? 'enabled' : 'disabled; its calls are refused until you enable it'}.`,
      failed: `Could not ${enabled ? 'enable' : 'disable'} the API key`,
    }),
  );
}

export const apiKeyStateRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/projects/:id/api-keys/:key/disable', access: 'session', handle: confirmDisable },
  { method: 'POST', path: '/projects/:id/api-keys/:key/disable', access: 'session', handle: setEnabled(false) },
  { method: 'POST', path: '/projects/:id/api-keys/:key/enable', access: 'session', handle: setEnabled(true) },
];
