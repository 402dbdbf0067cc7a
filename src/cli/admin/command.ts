import type { AdminClient } from '#admin/contract';
import type { CliStream } from '../io.ts';

/** Options every admin command may receive (parsed once by `node:util` parseArgs). */
export interface AdminValues {
  readonly json?: boolean | undefined;
  readonly name?: string | undefined;
  readonly plan?: string | undefined;
  readonly project?: string | undefined;
  readonly account?: string | undefined;
  readonly email?: string | undefined;
  readonly role?: string | undefined;
  readonly scopes?: string | undefined;
  readonly gnaf?: string | undefined;
  /** `keys rotate --now`: the emergency rotation. */
  readonly now?: boolean | undefined;
  /** `project limits --set JSON`: the override; `--clear` removes it. */
  readonly set?: string | undefined;
  readonly clear?: boolean | undefined;
  /** `project usage --month YYYY-MM`. */
  readonly month?: string | undefined;
  /** `client create --auth client_secret|private_key_jwt`. */
  readonly auth?: string | undefined;
  /** A file holding a client's public JWK set (`client create --auth private_key_jwt`, `client keys`). */
  readonly jwks?: string | undefined;
  /** `client create --require-dpop`: its token requests must carry a DPoP proof. */
  readonly 'require-dpop'?: boolean | undefined;
  /** `client dpop ID --require|--allow`: make its token requests need a DPoP proof, or not. */
  readonly require?: boolean | undefined;
  readonly allow?: boolean | undefined;
  /** `client create --introspect`, `client update ID --introspect|--no-introspect` (RFC 7662 permission). */
  readonly introspect?: boolean | undefined;
  readonly 'no-introspect'?: boolean | undefined;
  /** `account require-2fa ID --on|--off`. */
  readonly on?: boolean | undefined;
  readonly off?: boolean | undefined;
  /** `client secret rotate ID --overlap 24h`: how long the previous secret keeps working. */
  readonly overlap?: string | undefined;
}

export interface CommandInput {
  /** The admin API, one typed call per operation of the contract. */
  readonly api: AdminClient;
  readonly values: AdminValues;
  /** Positionals after `<noun> <verb>`. */
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where relative paths (`--gnaf`, `--jwks`, DATA_DIR) start. */
  readonly cwd: string;
  /** Progress that is not the command's output (`address import`'s bar). */
  readonly stderr: CliStream;
}

/** `json` is printed with --json (exactly one value); `text` otherwise. */
export interface CommandOutput {
  readonly json: unknown;
  readonly text: string;
}

/** What `tokengate admin <noun> <verb> --help` says beyond the command's usage line. */
export interface AdminHelp {
  readonly summary: string;
  readonly arguments?: Readonly<Record<string, string>>;
  /** Its options (without `--json` and `--help`, which every command takes). */
  readonly options?: Readonly<Record<string, string>>;
}

export interface AdminCommand {
  readonly noun: string;
  readonly verb: string;
  readonly usage: string;
  readonly help: AdminHelp;
  /** Its positional may start with '-' (a jti is random base64url): not refused as an unknown option. */
  readonly dashedValues?: boolean;
  run(input: CommandInput): Promise<CommandOutput>;
}
