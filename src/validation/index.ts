export type { ValidationRequest, ValidationResponse, ValidationRoute } from './types.ts';
