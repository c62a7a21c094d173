import type { ContentBlockParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { todoCallStep } from '../../common/plan/callStep';
import type { AgentEvent, AgentState } from '../../common/agentEvents';
import type { ApprovalGate } from '../approvals/approvalGate';
import type { NetworkPolicy } from '../network/networkPolicy';
import type { ChangeRecorder } from '../changes/recorder';
import type { WorkspaceSession } from '../session/workspaceSession';
import type { CommandSandbox, ToolResult } from '../tools/types';
import { LiveOutput } from './liveOutput';
import { CANCELLED_RESULT, cutOffCallResult, deniedResult } from './modelTexts';
import { resultPictures, runToolCall, toolResultBlock, type AgentTool } from './toolRunner';
import { awaitWorkspace } from './workspaceReady';

/** What running a round's calls needs from the loop. */
export interface RoundCallsContext {
  session: WorkspaceSession;
  changes?: ChangeRecorder;
  /** The workspace's OS sandbox for commands; absent: commands are not confined. */
  sandbox?: CommandSandbox;
  /** Paths no tool may read (see sandbox/secretPaths). */
  secrets?: readonly string[];
  /** What the tools may reach on the network (web_fetch). */
  network?: NetworkPolicy;
  gate: ApprovalGate;
  /** The workspace folder exists once this settles (see AgentOptions.workspaceReady). */
  workspaceReady?: Promise<unknown>;
  tools: readonly AgentTool[];
  signal: AbortSignal;
  emit(event: AgentEvent): void;
  setState(state: AgentState): void;
  /** After a call that ran, with the plan's version before it (to tell where the agent undid an edit). */
  ran(planVersionBefore: number): void;
}

/**
 * Runs one answer's tool calls in order, each past the approval gate, and returns their
 * tool_result blocks, one per call, in the calls' order: after a stop, the calls left are answered
 * as cancelled; the call max_tokens cut off (`cut`) is answered, never run. Calls of a `concurrent`
 * tool (delegate) are started in turn and awaited together at the end, so helpers work side by side.
 */
export async function runRoundCalls(calls: readonly ToolUseBlock[], cut: ToolUseBlock | undefined, context: RoundCallsContext): Promise<ContentBlockParam[]> {
  const results: Promise<ContentBlockParam>[] = [];
  for (const call of calls) {
    const running = runCall(call, call === cut, context);
    if (!context.tools.find((t) => t.name === call.name)?.concurrent) await running;
    results.push(running);
  }
  return Promise.all(results);
}

async function runCall(call: ToolUseBlock, isCut: boolean, context: RoundCallsContext): Promise<ContentBlockParam> {
  const { session, changes, tools, signal, emit } = context;
  emit({ type: 'tool_call', id: call.id, name: call.name, input: call.input });
  let result;
  let planVersion: number | undefined;
  if (signal.aborted) result = { content: CANCELLED_RESULT, isError: true };
  else if (isCut) {
    result = { content: cutOffCallResult(call.name), isError: true };
  } else {
    // Approval reads the workspace too (a file change's preview), so the folder comes first.
    const refusal =
      (await awaitWorkspace(
        context.workspaceReady,
        tools.find((t) => t.name === call.name),
        signal,
      )) ?? (await askApproval(call, context));
    if (refusal) {
      emit({ type: 'tool_result', id: call.id, name: call.name, content: refusal.content, isError: refusal.isError });
      return toolResultBlock(call.id, refusal);
    }
    context.setState('running_tool');
    // A concurrent call's plan moves and file changes are its helper's, recorded by the helpers (and
    // other calls run meanwhile): not this call's step, nor its files to read back.
    const concurrent = tools.find((t) => t.name === call.name)?.concurrent === true;
    if (!concurrent) planVersion = session.plan.version;
    const live = new LiveOutput((chunk, skipped) => emit({ type: 'tool_output', id: call.id, chunk, ...(skipped > 0 ? { skipped } : {}) }));
    result = await runToolCall(tools, call, {
      workspace: session.workspace,
      sessionId: session.id,
      sandbox: context.sandbox,
      secrets: context.secrets,
      network: context.network,
      signal,
      onOutput: (chunk) => live.push(chunk),
      beforeFileChange: changes ? (file) => changes.beforeFileChange(file) : undefined,
    });
    live.flush();
    // Read back what the call left on disk, even when it was stopped midway.
    if (!concurrent) await changes?.afterToolCall();
    if (signal.aborted) result = { content: `${CANCELLED_RESULT}\n\n${result.content}`, isError: true };
  }
  const pictures = resultPictures(result);
  const images = pictures.length ? { images: pictures.map((image) => session.keepImage(image)) } : {};
  const step = planVersion === undefined ? null : todoCallStep(session.plan.history, planVersion);
  emit({ type: 'tool_result', id: call.id, name: call.name, content: result.content, isError: result.isError, ...images, ...step });
  if (planVersion !== undefined) context.ran(planVersion);
  return toolResultBlock(call.id, result);
}

/** Asks the person when the approval mode wants it: the result to give the model instead of running the call, or null to run it. */
async function askApproval(call: ToolUseBlock, context: RoundCallsContext): Promise<ToolResult | null> {
  const { signal, emit } = context;
  const verdict = await context.gate.check(
    call,
    context.tools.find((t) => t.name === call.name),
    signal,
    {
      waiting: (request) => {
        context.setState('waiting_approval');
        emit({ type: 'approval_requested', request });
      },
      answered: (id, decision) => emit({ type: 'approval_resolved', id, decision }),
    },
  );
  if (verdict.run) return null;
  if (signal.aborted) return { content: CANCELLED_RESULT, isError: true };
  if (verdict.refusal) return { content: verdict.refusal, isError: true };
  return { content: deniedResult(call.name, verdict.reason), isError: true };
}
