import { type Html, html } from './escape.ts';

/** The form field passkey.js fills with the browser's answer (JSON). */
export const CREDENTIAL_FIELD = 'credential';

/**
 * A form passkey.js drives: the options the server made (with their single-use challenge) in a
 * data attribute, the browser's answer posted in the `credential` field. Hidden until the script
 * finds WebAuthn in the browser; without it a note says so.
 */
export function passkeyForm(args: {
  readonly action: string;
  readonly mode: 'create' | 'get';
  readonly options: unknown;
  readonly hidden: Html | string;
  readonly fields?: Html;
  readonly button: string;
  readonly secondary?: boolean;
}): Html {
  const options = JSON.stringify(args.options);
  const data = args.mode === 'create' ? html`data-passkey-create="${options}"` : html`data-passkey-get="${options}"`;
  return html`<noscript><p class="hint">Passkeys need the page’s script: turn script on to use one.</p></noscript>
<p class="hint" data-passkey-unsupported hidden>This browser cannot use passkeys.</p>
<form method="post" action="${args.action}" class="stack card" hidden ${data}>${args.hidden}<input type="hidden" name="${CREDENTIAL_FIELD}" value="">${args.fields ?? ''}
<button type="submit"${args.secondary ? html` class="button-secondary"` : ''}>${args.button}</button>
<p class="hint" role="status" data-passkey-status></p></form>`;
}
