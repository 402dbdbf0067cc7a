import { z } from 'zod';
import { PLANS } from '#common';

export const planSchema = z.enum(PLANS, { error: `plan: required, one of ${PLANS.join(', ')}` });
