// Passkeys (WebAuthn) without a fetch: the page carries the options the server made (with its
// single-use challenge) in a data attribute of a form; this script asks the browser for the
// credential, puts its answer in the form's `credential` field as JSON and posts the form, so the
// CSP's connect-src 'none' and the form's CSRF token stay as they are. Without script or without
// WebAuthn the passkey forms stay hidden and a note says why.

const fromBase64url = (text) =>
  Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
const toBase64url = (buffer) =>
  btoa(String.fromCharCode(...new Uint8Array(buffer)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const withIds = (list) => (list ?? []).map((item) => ({ ...item, id: fromBase64url(item.id) }));

function creationOptions(json) {
  return {
    ...json,
    challenge: fromBase64url(json.challenge),
    user: { ...json.user, id: fromBase64url(json.user.id) },
    excludeCredentials: withIds(json.excludeCredentials),
  };
}

function requestOptions(json) {
  return { ...json, challenge: fromBase64url(json.challenge), allowCredentials: withIds(json.allowCredentials) };
}

function answer(credential) {
  const r = credential.response;
  const response = r.attestationObject
    ? {
        clientDataJSON: toBase64url(r.clientDataJSON),
        attestationObject: toBase64url(r.attestationObject),
        transports: typeof r.getTransports === 'function' ? r.getTransports() : [],
      }
    : {
        clientDataJSON: toBase64url(r.clientDataJSON),
        authenticatorData: toBase64url(r.authenticatorData),
        signature: toBase64url(r.signature),
        ...(r.userHandle && r.userHandle.byteLength > 0 ? { userHandle: toBase64url(r.userHandle) } : {}),
      };
  return JSON.stringify({
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
    clientExtensionResults: credential.getClientExtensionResults(),
    response,
  });
}

const MESSAGES = {
  NotAllowedError: 'The passkey was not used: the request was cancelled or timed out. Try again.',
  InvalidStateError: 'This passkey is added already.',
  SecurityError: 'Passkeys work only at the portal’s own address: open it there and try again.',
};

for (const form of document.querySelectorAll('form[data-passkey-create], form[data-passkey-get]')) {
  const status = form.querySelector('[data-passkey-status]');
  if (!window.PublicKeyCredential) {
    const note = document.querySelector('[data-passkey-unsupported]');
    if (note) note.hidden = false;
    continue;
  }
  form.hidden = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('button[type="submit"]');
    if (button) button.disabled = true;
    if (status) status.textContent = 'Waiting for your passkey…';
    try {
      const credential = form.dataset.passkeyCreate
        ? await navigator.credentials.create({ publicKey: creationOptions(JSON.parse(form.dataset.passkeyCreate)) })
        : await navigator.credentials.get({ publicKey: requestOptions(JSON.parse(form.dataset.passkeyGet)) });
      form.elements.namedItem('credential').value = answer(credential);
      form.submit();
    } catch (error) {
      if (status) status.textContent = MESSAGES[error?.name] ?? 'Your browser could not use a passkey here.';
      if (button) button.disabled = false;
    }
  });
}
