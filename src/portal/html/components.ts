import type { Session } from '../auth/sessions.ts';
import { CSRF_FIELD } from '../auth/csrf.ts';
import { type Html, html } from './escape.ts';

export function csrfField(session: Session): Html {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${session.csrfToken}">`;
}

/** A form-level error, announced to screen readers and linked from the field. */
export function errorSummary(message: string | undefined): Html | string {
  if (!message) return '';
  return html`<div class="error-summary" role="alert" id="form-error"><h2>There is a problem</h2><p>${message}</p></div>`;
}

/** A date as `YYYY-MM-DD HH:MM UTC` inside <time>, or an em dash. */
export function when(value: number | string | null | undefined): Html | string {
  if (value === null || value === undefined) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  const iso = date.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

/**
 * A secret shown once: a labelled read-only field, a copy button (revealed by app.js, so
 * nothing is offered that cannot work without script), and the warning that it is gone after.
 */
export function secretPanel(id: string, label: string, secret: string): Html {
  return html`<div class="secret-panel" data-shown-once>
<p class="warning" id="${id}-warning"><strong>Copy this ${label.toLowerCase()} now.</strong> It is shown only once and cannot be shown again: tokengate stores only a hash of it.</p>
<label for="${id}">${label}</label>
<div class="secret-row">
<input id="${id}" class="secret" type="text" readonly value="${secret}" aria-describedby="${id}-warning" autocomplete="off" spellcheck="false">
<button type="button" class="copy-button" data-copy="${id}" hidden>Copy</button>
</div>
<p class="copy-status" role="status" data-copy-status="${id}"></p>
</div>`;
}
