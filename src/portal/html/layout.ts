import type { Session } from '../auth/sessions.ts';
import { assetPath } from '../assets.ts';
import { csrfField } from './components.ts';
import { type Html, html } from './escape.ts';

export interface Crumb {
  readonly label: string;
  readonly href?: string;
}

/** Which site a page belongs to: the account portal of people, or the operator's console. */
export interface Mount {
  readonly base: '/portal' | '/console';
  readonly mode: 'people' | 'console';
}

export type Section = 'projects' | 'people' | 'activity' | 'tokens' | 'signing-keys' | 'settings';

export interface PageOptions {
  readonly app: Mount;
  readonly title: string;
  readonly session?: Session | undefined;
  readonly crumbs?: readonly Crumb[];
  /** Which main-navigation entry is current. */
  readonly section?: Section;
  readonly notice?: string | undefined;
}

const NAV: Readonly<Record<Mount['mode'], ReadonlyArray<{ section: Section; path: string; label: string }>>> = {
  people: [
    { section: 'projects', path: '/projects', label: 'Projects' },
    { section: 'people', path: '/people', label: 'People' },
    { section: 'activity', path: '/activity', label: 'Activity' },
    { section: 'tokens', path: '/tokens/revoke', label: 'Revoke a token' },
    { section: 'settings', path: '/settings', label: 'Your sign-in' },
  ],
  console: [
    { section: 'projects', path: '/projects', label: 'Projects' },
    { section: 'tokens', path: '/tokens/revoke', label: 'Revoke a token' },
    { section: 'signing-keys', path: '/signing-keys', label: 'Token signing keys' },
  ],
};

const NAME: Readonly<Record<Mount['mode'], string>> = { people: 'account portal', console: 'operator console' };

/** The page shell: skip link, header with navigation and sign-out, breadcrumbs, main, footer. */
export function page(options: PageOptions, content: Html): Html {
  const { base, mode } = options.app;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · tokengate ${NAME[mode]}</title>
<link rel="icon" href="${base}/${assetPath('favicon.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${base}/${assetPath('portal.css')}">
<script src="${base}/${assetPath('app.js')}" defer></script>
${mode === 'people' ? html`<script src="${base}/${assetPath('passkey.js')}" defer></script>` : ''}
</head>
<body class="mode-${mode}">
<a class="skip-link" href="#main">Skip to main content</a>
<header class="site-header">
<a class="brand" href="${base}/projects">tokengate <span>${NAME[mode]}</span></a>
${options.session ? navigation(options.app, options.session, options.section) : ''}
</header>
${breadcrumbs(options.crumbs ?? [])}
<main id="main" tabindex="-1">
${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}
${content}
</main>
<footer class="site-footer"><p>${mode === 'people' ? 'tokengate · account portal' : 'tokengate · operator console on the admin port'}</p></footer>
</body>
</html>
`;
}

function navigation(app: Mount, session: Session, section: PageOptions['section']): Html {
  const items = NAV[app.mode].map(
    (item) =>
      html`<li><a href="${app.base}${item.path}"${item.section === section ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
  );
  return html`<nav class="main-nav" aria-label="Main"><ul>${items}</ul></nav>
<form class="sign-out" method="post" action="${app.base}/logout">${csrfField(session)}<button type="submit" class="button-secondary">Sign out</button></form>`;
}

function breadcrumbs(crumbs: readonly Crumb[]): Html | string {
  if (crumbs.length === 0) return '';
  const items = crumbs.map((crumb, i) =>
    i === crumbs.length - 1 || !crumb.href
      ? html`<li><span aria-current="page">${crumb.label}</span></li>`
      : html`<li><a href="${crumb.href}">${crumb.label}</a></li>`,
  );
  return html`<nav class="breadcrumbs" aria-label="Breadcrumb"><ol>${items}</ol></nav>`;
}
