export const PLAN_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

/** One step of the plan, as stored: every field already validated and normalised. */
export interface PlanItem {
  id: string;
  content: string;
  status: PlanStatus;
  activeForm?: string;
  /** The ids of the items this one waits for, in the writer's order; absent when it waits for none. */
  blockedBy?: string[];
  /** The agent working the item; absent for the main agent (MAIN_OWNER). */
  owner?: string;
}

/** The owner an item has when none is named: the agent the person gave the task to. */
export const MAIN_OWNER = 'main';

/**
 * A short id a writer may give an item, and the form an owner's name takes: letters, digits and
 * `-`. Short, because the model and the person read and type them as `#id`.
 */
export const SHORT_ID_PATTERN = /^[A-Za-z0-9-]{1,32}$/;
export const MAX_SHORT_ID_LENGTH = 32;

/** Who made a plan version: the model through its `todo` tool, or the person on the board. */
export type PlanSource = 'agent' | 'user';

export interface PlanVersion {
  version: number;
  source: PlanSource;
  items: PlanItem[];
  /** ISO time the version was stored. */
  at: string;
  /** An agent version that undid part of the person's last edit says where (shown, never blocking). */
  overrides?: PlanOverride[];
}

/** The defaults docs/plan-rules.md names; both are settings. */
export const MAX_PLAN_ITEMS = 12;
/** A step is a line on a board, not a document: longer text belongs in a file or the chat. */
export const MAX_PLAN_ITEM_LENGTH = 500;
export const DEFAULT_REMINDER_ROUNDS = 3;
export const DEFAULT_GATE_BOUND = 2;

/**
 * Where the agent's plan undid part of the person's last edit (issue 16.1). Keel accepts such a
 * plan, but says so, and offers the person's version back:
 * - `dropped`: a step the person added is gone; `index` is where it stood in their edit.
 * - `reworded_back`: a step the person reworded carries another wording again (`yours` was theirs).
 * - `restored`: a step the person deleted is back (matched by id or by its text).
 */
export type PlanOverride =
  | { kind: 'dropped'; item: PlanItem; index: number }
  | { kind: 'reworded_back'; id: string; yours: string; theirs: string }
  | { kind: 'restored'; item: PlanItem; deleted: PlanItem };
