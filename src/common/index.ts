export { type Clock, systemClock, epochSeconds } from './clock.ts';
export { SCOPES, type Scope, isScope, PLANS, type Plan, isPlan, planAllowsOAuth, planScopes } from './scopes.ts';
export {
  API_ERRORS,
  type ApiErrorKind,
  type ApiErrorBody,
  apiError,
  STORE_RETRY_AFTER_SEC,
  utcTimestamp,
} from './api-errors.ts';
export { createLogger, destinationOf, LOG_LEVELS, REDACT_PATHS, type Logger, type LoggerOptions } from './logger.ts';
export { LOG_FORMATS, type LogFormat, logFormat, logFormatProblem, prettyOutput } from './log-format.ts';
export { sendJson, readBody, BodyTooLargeError, remoteAddress } from './http.ts';
export { escapeHtml } from './escape-html.ts';
export { generateSecret, hashSecret, verifySecret } from './secrets.ts';
export { verifyRotatingSecret } from './rotating-secret.ts';
export { ADMIN_TOKEN_RULE, ADMIN_TOKEN_UNUSABLE, adminTokenUnusable, isUsableAdminToken } from './admin-token.ts';
export { ensurePrivateDirectory } from './private-dir.ts';
export { ignoreHangUps, stopSignal } from './signals.ts';
export { fetchFailureCause } from './fetch-cause.ts';
export { oauthError, type OAuthErrorBody, type OAuthErrorCode } from './api-errors.ts';
export {
  addressSearchChannel,
  type OAuthErrorMessage,
  oauthErrorChannel,
  type RevocationMessage,
  revocationChannel,
  type StoreQueryContext,
  storeQueryChannel,
} from './diagnostics.ts';
export type { TracingSettings } from './tracing-options.ts';
export { loadTracing, type TracingSdk, tracingSettings } from './tracing-settings.ts';
export { type LimitsOverride, limitsOverrideSchema } from './limits-override.ts';
export { type Failure, failure, type Result, type Success, success } from './result.ts';
export { ConfigError } from './config/config-error.ts';
export { deepFreeze } from './config/deep-freeze.ts';
export { type Env, setting, unsetIfBlank } from './config/setting.ts';
export {
  httpUrl,
  milliseconds,
  oneOf,
  portNumber,
  readEnvironment,
  secret,
  type VariableDoc,
  variable,
} from './config/environment.ts';
export { type ConfigProblem, readYamlConfig, schemaProblems } from './config/yaml-config.ts';
