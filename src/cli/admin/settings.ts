import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ADMIN_TOKEN_UNUSABLE, adminTokenUnusable, isUsableAdminToken } from '#common';
import { CliError } from '../cli-error.ts';

export interface AdminSettings {
  readonly baseUrl: string;
  readonly token: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** ADMIN_URL (default http://127.0.0.1:$ADMIN_PORT) and ADMIN_TOKEN (default $DATA_DIR/admin-token). */
export async function adminSettings(env: Env, cwd: string): Promise<AdminSettings> {
  const baseUrl = (env['ADMIN_URL']?.trim() || `http://127.0.0.1:${env['ADMIN_PORT']?.trim() || '3001'}`).replace(
    /\/+$/,
    '',
  );
  if (!URL.canParse(baseUrl)) throw new CliError(`ADMIN_URL: not an absolute URL: ${withoutUserInfo(baseUrl)}`, 2);
  const { protocol, username, password } = new URL(baseUrl);
  // admin:token@host parses with the scheme "admin:" (and no user part); only http(s) can be reached.
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new CliError(`ADMIN_URL: not an http:// or https:// URL: ${withoutUserInfo(baseUrl)}`, 2);
  // Every message names the URL: a password in it would be printed (and fetch refuses such a URL anyway).
  if (username || password)
    throw new CliError(
      'ADMIN_URL: must not carry a user name or password (user:password@); the admin token goes in ADMIN_TOKEN',
      2,
    );
  const fromEnv = env['ADMIN_TOKEN']?.trim();
  if (fromEnv && !isUsableAdminToken(fromEnv)) throw new CliError(ADMIN_TOKEN_UNUSABLE, 2);
  if (fromEnv) return { baseUrl, token: fromEnv };
  const path = join(resolve(cwd, env['DATA_DIR']?.trim() || './data'), 'admin-token');
  const token = await readTokenFile(path);
  if (!token) {
    throw new CliError(`no admin token: set ADMIN_TOKEN, or start the upstream once so that it writes ${path}`);
  }
  if (!isUsableAdminToken(token)) throw new CliError(adminTokenUnusable(path), 2);
  return { baseUrl, token };
}

/**
 * The URL as it may be printed: whatever precedes an `@` in the authority could be a password,
 * with or without a scheme (`//user:pw@host`, `user:pw@host`).
 */
function withoutUserInfo(url: string): string {
  return url.replace(/^((?:[^:/?#]*:)?\/\/)?[^/?#]*@/, '$1…@');
}

/** The file the upstream writes on first start (read here directly: the CLI loads no server code). */
async function readTokenFile(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, 'utf8')).trim() || undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new CliError(`cannot read the admin token file ${path}: ${code ?? 'error'}`);
  }
}
