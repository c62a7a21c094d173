/**
 * What the agent tells the change tracker while it works, so the Changes view can show what each
 * task did to which files and undo it. Every method is safe to call: a failure to record is logged,
 * never thrown into the agent's loop (the person's task matters more than its undo history).
 */
export interface ChangeRecorder {
  /** `title` is the person's message that started the task. */
  taskStarted(taskId: string, title: string): void;
  /**
   * Synchronous on purpose: a tool calls it right before it replaces the file and does not wait,
   * so the prior bytes must be copied before this returns (see ToolContext.beforeFileChange).
   */
  beforeFileChange(absolutePath: string): void;
  /** After each tool call: reads back the files the call touched, as the agent left them. */
  afterToolCall(): Promise<void>;
  taskEnded(taskId: string): void;
}
