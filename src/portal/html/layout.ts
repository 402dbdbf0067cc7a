import type { Session } from '../auth/sessions.ts';
import { csrfField } from './components.ts';
import { type Html, html } from './escape.ts';

export interface Crumb {
  readonly label: string;
  readonly href?: string;
}

export interface PageOptions {
  readonly title: string;
  readonly session?: Session | undefined;
  readonly crumbs?: readonly Crumb[];
  /** Which main-navigation entry is current. */
  readonly section?: 'projects' | 'tokens' | 'signing-keys';
  readonly notice?: string | undefined;
}

const NAV = [
  { section: 'projects', href: '/portal/projects', label: 'Projects' },
  { section: 'tokens', href: '/portal/tokens/revoke', label: 'Revoke a token' },
  { section: 'signing-keys', href: '/portal/signing-keys', label: 'Signing keys' },
] as const;

/** The page shell: skip link, header with navigation and sign-out, breadcrumbs, main, footer. */
export function page(options: PageOptions, content: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · tokengate account portal</title>
<link rel="stylesheet" href="/portal/assets/portal.css">
<script src="/portal/assets/app.js" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to main content</a>
<header class="site-header">
<a class="brand" href="/portal/projects">tokengate <span>account portal</span></a>
${options.session ? navigation(options.session, options.section) : ''}
</header>
${breadcrumbs(options.crumbs ?? [])}
<main id="main" tabindex="-1">
${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}
${content}
</main>
<footer class="site-footer"><p>tokengate · operator portal on the admin port</p></footer>
</body>
</html>
`;
}

function navigation(session: Session, section: PageOptions['section']): Html {
  const items = NAV.map(
    (item) =>
      html`<li><a href="${item.href}"${item.section === section ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
  );
  return html`<nav class="main-nav" aria-label="Main"><ul>${items}</ul></nav>
<form class="sign-out" method="post" action="/portal/logout">${csrfField(session)}<button type="submit" class="button-secondary">Sign out</button></form>`;
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
