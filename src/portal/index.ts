export { createPortal } from './portal.ts';
export type { Portal, PortalOptions } from './types.ts';
export { html, escapeHtml, Html } from './html/escape.ts';
