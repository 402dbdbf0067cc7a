import type { Html } from '../html/escape.ts';
import { type Crumb, page, type Section } from '../html/layout.ts';
import { sendPage } from '../http/respond.ts';
import type { SessionRequest } from './common.ts';

export interface SessionPageView {
  readonly title: string;
  /** Which main-navigation entry is current. */
  readonly section: Section;
  readonly crumbs?: readonly Crumb[];
  readonly notice?: string | undefined;
  readonly status?: number;
}

/** A page for the signed-in person (or the operator), in the site shell of the mount it was asked on. */
export function sendSessionPage(r: SessionRequest, view: SessionPageView, body: Html): void {
  const { title, section, crumbs, notice, status = 200 } = view;
  sendPage(r.res, status, page({ app: r.app, title, session: r.session, section, crumbs, notice }, body));
}
