import { csrfField } from '../html/components.ts';
import { type Html, html } from '../html/escape.ts';
import type { Crumb } from '../html/layout.ts';
import type { SessionRequest } from './common.ts';
import { type SessionPageView, sendSessionPage } from './session-page.ts';

export type ProjectPageView = Omit<SessionPageView, 'section'>;

/** A page of the Projects section (a project and what it holds). */
export function sendProjectPage(r: SessionRequest, view: ProjectPageView, body: Html): void {
  sendSessionPage(r, { ...view, section: 'projects' }, body);
}

export interface Confirmation {
  readonly title: string;
  readonly heading: string;
  /** What the action does and what cannot be taken back. */
  readonly warning: Html;
  /** What it acts on, as `<dt>`/`<dd>` pairs. */
  readonly facts: Html;
  readonly button: string;
  readonly action: string;
  /** Where Cancel goes. */
  readonly back: string;
  readonly crumbs: readonly Crumb[];
}

/** The question before an action that revokes or removes access: a warning, the facts, one button, Cancel. */
export function sendConfirmation(r: SessionRequest, c: Confirmation): void {
  const body = html`<div class="narrow"><h1>${c.heading}</h1>
<div class="callout callout-warning" role="note"><p>${c.warning}</p></div>
<dl class="facts">${c.facts}</dl>
<form method="post" action="${c.action}" class="actions">${csrfField(r.session)}
<button type="submit" class="button-danger">${c.button}</button> <a href="${c.back}">Cancel</a></form></div>`;
  sendProjectPage(r, { title: c.title, crumbs: c.crumbs }, body);
}
