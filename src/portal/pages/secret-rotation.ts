import { parseInput, rotateSecretInput } from '#admin';
import type { PreviousSecret } from '#store';
import { csrfField, secretPanel, when } from '../html/components.ts';
import { type Html, html } from '../html/escape.ts';
import type { SessionRequest } from './common.ts';

/*
 * What the pages of a client and of an API key share about rotating a secret: whether a previous
 * secret still works and until when, the rotate form (with its overlap), the retire button, and
 * the page that shows the new secret once.
 */

/** The overlaps the form offers: the admin API's durations, 24 hours first chosen. */
const OVERLAPS: readonly (readonly [value: string, label: string])[] = [
  ['0', 'No: the current secret stops working now'],
  ['1h', '1 hour'],
  ['24h', '24 hours'],
  ['7d', '7 days'],
  ['30d', '30 days (the longest)'],
];

/** Until when the previous secret works (epoch ms), or null when none does now. */
export function previousUntil(r: SessionRequest, previous: PreviousSecret | null): number | null {
  return previous !== null && r.app.clock.now() < previous.validUntil ? previous.validUntil : null;
}

/** The rotation's input from the form: one of the offered overlaps (anything else is the schema's refusal). */
export function rotationInput(r: SessionRequest) {
  return parseInput(rotateSecretInput, { overlap: r.form.get('overlap') ?? '24h' });
}

/**
 * The secret's section: its state, then (for whoever may change it) the rotate form and, while a
 * previous secret works, the retire button. `action` is the path the two forms post under.
 */
export function secretSection(
  r: SessionRequest,
  opts: { readonly what: string; readonly action: string; readonly until: number | null; readonly mayChange: boolean },
): Html {
  const state =
    opts.until === null
      ? html`<p id="secret-state"><strong>One secret works:</strong> the current one.</p>`
      : html`<p id="secret-state" class="callout"><strong>The previous secret still works until ${when(opts.until)}.</strong> Both secrets are accepted until then. Once every caller uses the new one, retire the previous secret.</p>`;
  if (!opts.mayChange)
    return html`<section class="stack" aria-labelledby="secret-heading"><h2 id="secret-heading">Secret</h2>${state}</section>`;
  const options = OVERLAPS.map(
    ([value, label]) => html`<option value="${value}"${value === '24h' ? html` selected` : ''}>${label}</option>`,
  );
  const retire =
    opts.until === null
      ? ''
      : html`<form method="post" action="${opts.action}/retire" class="actions">${csrfField(r.session)}<button type="submit" class="button-secondary">Retire the previous secret now</button></form>`;
  return html`<section class="stack" aria-labelledby="secret-heading"><h2 id="secret-heading">Secret</h2>
${state}
${retire}
<form method="post" action="${opts.action}/rotate" class="stack card">
${csrfField(r.session)}
<div class="field"><label for="overlap">Keep the previous secret working for</label>
<select id="overlap" name="overlap" aria-describedby="overlap-hint">${options}</select>
<p class="hint" id="overlap-hint">Rotating gives ${opts.what} a new secret, shown once. During this time both secrets work, so callers can move to the new one without an outage; a secret from an earlier rotation stops now. Tokens already issued are not affected.</p></div>
<div class="actions"><button type="submit">Rotate secret</button></div>
</form></section>`;
}

/** The answer to a rotation: the new secret once, and until when the previous one works. */
export function rotatedBody(opts: {
  readonly heading: string;
  readonly facts: Html;
  readonly secret: string;
  readonly until: number | null;
  readonly back: string;
  readonly backLabel: string;
}): Html {
  const previous =
    opts.until === null
      ? html`<p id="previous-note">The previous secret no longer works.</p>`
      : html`<p id="previous-note">The previous secret keeps working until ${when(opts.until)}, or until you retire it.</p>`;
  return html`<h1>${opts.heading}</h1>
<dl class="facts">${opts.facts}</dl>
${secretPanel('new-secret', 'New secret', opts.secret)}
${previous}
<p><a class="button" href="${opts.back}">${opts.backLabel}</a></p>`;
}
