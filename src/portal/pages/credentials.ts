import type { Project } from '#store';
import { type Html, html } from '../html/escape.ts';
import type { Crumb } from '../html/layout.ts';
import { type Linked, projectCrumbs, projectHref, type SessionRequest, takeNotice } from './common.ts';
import { sendProjectPage } from './project-page.ts';

export type CredentialsTab = 'api-keys' | 'oauth-clients';

export const credentialsHref = (r: Linked, project: Project, tab: CredentialsTab) =>
  `${projectHref(r, project)}/credentials${tab === 'oauth-clients' ? '/oauth-clients' : ''}`;

export function credentialsCrumbs(r: Linked, project: Project, ...more: Crumb[]): Crumb[] {
  return projectCrumbs(
    r,
    project,
    { label: 'Keys', href: `${projectHref(r, project)}/keys` },
    { label: 'Credentials', href: credentialsHref(r, project, 'api-keys') },
    ...more,
  );
}

/**
 * Tabs as links (each tab is its own URL, so it works without script, can be bookmarked and
 * is announced as the current page); the panel is the page's main content.
 */
function tabs(r: Linked, project: Project, current: CredentialsTab): Html {
  const tab = (id: CredentialsTab, label: string) =>
    html`<li><a href="${credentialsHref(r, project, id)}"${id === current ? html` aria-current="page"` : ''}>${label}</a></li>`;
  return html`<nav class="tabs" aria-label="Credential types"><ul>${tab('api-keys', 'API keys')}${tab('oauth-clients', 'OAuth 2.0 clients')}</ul></nav>`;
}

/** Renders a Credentials page with its tab bar above the tab's content. */
export async function sendCredentials(
  r: SessionRequest,
  project: Project,
  current: CredentialsTab,
  content: Html,
  status = 200,
  step?: string,
): Promise<void> {
  const label = current === 'api-keys' ? 'API keys' : 'OAuth 2.0 clients';
  const trail: Crumb[] = step ? [{ label, href: credentialsHref(r, project, current) }, { label: step }] : [{ label }];
  const body = html`<h1>Credentials <span class="subtitle">${project.name}</span></h1>
${tabs(r, project, current)}
<section class="tab-panel" aria-labelledby="tab-heading"><h2 id="tab-heading">${label}</h2>
${content}
</section>`;
  const crumbs = credentialsCrumbs(r, project, ...trail);
  sendProjectPage(r, { title: `${label} · ${project.name}`, crumbs, notice: await takeNotice(r), status }, body);
}
