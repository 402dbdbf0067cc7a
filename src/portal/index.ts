export { createPortal } from './portal.ts';
export type { Portal, PortalOptions } from './types.ts';
export { html, Html } from './html/escape.ts';
