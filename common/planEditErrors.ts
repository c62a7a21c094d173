import type { PlanConflictDetails, PlanInvalidDetails } from './contract';
import { ErrorCodes } from './errorCodes';
import type { KeelError } from './result';

/*
 * `plan.edit`'s two refusals, typed from the contract's schemas (PlanConflictDetailsSchema,
 * PlanInvalidDetailsSchema), which main's plan handler builds them with. Kept free of zod, like
 * errorCodes.ts, so the window can branch on them without bundling it.
 */

export type PlanConflictError = KeelError & { code: typeof ErrorCodes.planConflict; details: PlanConflictDetails };
export type PlanInvalidError = KeelError & { code: typeof ErrorCodes.planInvalid; details: PlanInvalidDetails };

export const isPlanConflict = (error: KeelError): error is PlanConflictError =>
  error.code === ErrorCodes.planConflict && typeof error.details === 'object' && error.details !== null;

export const isPlanInvalid = (error: KeelError): error is PlanInvalidError =>
  error.code === ErrorCodes.planInvalid && typeof error.details === 'object' && error.details !== null;
