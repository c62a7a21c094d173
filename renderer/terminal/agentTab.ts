/** The id of the read-only tab that shows the agent's commands. */
export const AGENT_TAB = 'agent';
