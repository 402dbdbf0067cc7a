import type { Project } from '#store';
import { attempt } from '../attempt.ts';
import type { Html } from '../html/escape.ts';
import { redirect } from '../http/respond.ts';
import { forbiddenPage, type SessionRequest, setNotice } from './common.ts';
import { type CredentialsTab, credentialsCrumbs, credentialsHref } from './credentials.ts';
import { sendConfirmation } from './project-page.ts';

/**
 * An API key or an OAuth client, as the pages that disable, enable or delete one find it: loaded
 * from the path (the loader answers the 404 page itself), listed under a Credentials tab.
 */
export interface Credential<F extends { readonly project: Project }> {
  load(r: SessionRequest): Promise<F | undefined>;
  readonly tab: CredentialsTab;
  /** The tab's label in the crumbs. */
  readonly list: string;
}

type Handler = (r: SessionRequest) => Promise<void>;

/** The question before the action: what it does, what it acts on, one button, Cancel (back to the list). */
export function confirmStep<F extends { readonly project: Project }>(
  credential: Credential<F>,
  page: (found: F) => {
    readonly title: string;
    readonly heading: string;
    readonly warning: Html;
    readonly facts: Html;
    readonly button: string;
    /** The crumb of this page. */
    readonly step: string;
  },
): Handler {
  return async (r) => {
    const found = await credential.load(r);
    if (!found) return;
    const back = credentialsHref(r, found.project, credential.tab);
    const { step, ...question } = page(found);
    const crumbs = credentialsCrumbs(r, found.project, { label: credential.list, href: back }, { label: step });
    sendConfirmation(r, { ...question, action: r.req.url?.split('?', 1)[0] ?? '', back, crumbs });
  };
}

/** The action itself, through the service: a refusal for the role is the 403 page, else a notice on the list. */
export function actStep<F extends { readonly project: Project }>(
  credential: Credential<F>,
  act: (r: SessionRequest, found: F) => Promise<unknown>,
  notice: (found: F) => { readonly done: string; readonly failed: string },
): Handler {
  return async (r) => {
    const found = await credential.load(r);
    if (!found) return;
    const result = await attempt(() => act(r, found));
    if (!result.ok && result.kind === 'forbidden') return forbiddenPage(r, result.message);
    const { done, failed } = notice(found);
    await setNotice(r, result.ok ? done : `${failed}: ${result.message}`);
    redirect(r.res, credentialsHref(r, found.project, credential.tab));
  };
}
