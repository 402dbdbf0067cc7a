// A page showing a secret once is the answer to the form that created it. Reloading it would
// send that form again and create another credential whose secret nobody keeps: the page's
// history entry is made a plain GET of its URL, so a reload (or Back then Forward) shows the list.
if (document.querySelector('[data-shown-once]')) history.replaceState(null, '', location.href);

// Copy buttons for secrets shown once. Buttons start hidden so that a page without script
// offers nothing that cannot work; the secret field stays selectable either way.
for (const button of document.querySelectorAll('button[data-copy]')) {
  const field = document.getElementById(button.dataset.copy);
  const status = document.querySelector(`[data-copy-status="${button.dataset.copy}"]`);
  if (!field) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      if (status) status.textContent = 'Copied to the clipboard.';
    } catch {
      field.select();
      if (status) status.textContent = 'Could not copy automatically: the secret is selected, press Ctrl+C (or ⌘C).';
    }
  });
}
