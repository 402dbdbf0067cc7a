const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * The one HTML escaper: text made safe inside an element or a quoted attribute. In #common
 * because both the portal's pages and the address search's highlighted_full_address write
 * HTML, and the address search must not import the portal.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}
