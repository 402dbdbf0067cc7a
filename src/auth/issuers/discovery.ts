import { fetchJson, reasonOf } from '../bounded-fetch.ts';

/** What this gateway reads from an issuer's metadata (OpenID Connect Discovery 1.0 / RFC 8414). */
export interface IssuerMetadata {
  readonly jwksUri: string;
  readonly introspectionEndpoint: string | undefined;
}

const MAX_METADATA_BYTES = 64 * 1024;

function httpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 2048) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The metadata document's fields, checked: its `issuer` must be exactly the one configured
 * (RFC 8414 §3.3, OIDC Discovery §4.3), so a document served for another issuer never supplies
 * keys; `jwks_uri` must be an http(s) URL. A string says what is wrong.
 */
export function readMetadata(body: unknown, issuer: string): IssuerMetadata | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'metadata is not a JSON object';
  const fields = body as Record<string, unknown>;
  if (fields['issuer'] !== issuer) return 'metadata names another issuer';
  const jwksUri = httpUrl(fields['jwks_uri']);
  if (jwksUri === undefined) return 'metadata has no http(s) jwks_uri';
  return { jwksUri, introspectionEndpoint: httpUrl(fields['introspection_endpoint']) };
}

/** Fetches and checks the metadata once; rejects with a secret-free reason. */
export async function discover(
  url: string,
  issuer: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<IssuerMetadata> {
  let fetched: Awaited<ReturnType<typeof fetchJson>>;
  try {
    fetched = await fetchJson(url, { timeoutMs, maxBytes: MAX_METADATA_BYTES, ...(signal ? { signal } : {}) });
  } catch (error) {
    throw new Error(`discovery failed: ${reasonOf(error)}`);
  }
  if (fetched.status !== 200) throw new Error(`discovery answered ${fetched.status}`);
  const metadata = readMetadata(fetched.body, issuer);
  if (typeof metadata === 'string') throw new Error(metadata);
  return metadata;
}
