import type { IncomingMessage } from 'node:http';
import type { ValidationRoute } from '#validation';

/**
 * The shape the server needs from request authentication (built in `./api-auth/`): allowed
 * with the caller's project, or a complete error answer in the route's body shape.
 */
export type ApiAuthResult =
  | { readonly ok: true; readonly projectId: string; readonly via: 'bearer' | 'key' }
  | {
      readonly ok: false;
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly body: unknown;
    };

export interface ApiAuthenticator {
  authenticate(req: IncomingMessage, query: URLSearchParams, route: ValidationRoute): Promise<ApiAuthResult>;
}
