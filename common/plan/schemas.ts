import { z } from 'zod';
import { PLAN_STATUSES } from './types';

/** A stored plan item as it crosses a boundary (IPC, WebSocket, events). */
export const PlanItemSchema = z.object({
  id: z.string(),
  content: z.string(),
  status: z.enum(PLAN_STATUSES),
  activeForm: z.string().optional(),
});
