export { createPortal } from './portal.ts';
export type { AdminOperation, OperationRefusal, Portal, PortalContext, PortalOptions } from './types.ts';
export { html, escapeHtml, Html } from './html/escape.ts';
