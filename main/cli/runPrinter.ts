import type { AgentEvent } from '../../common/agentEvents';
import type { PlanSnapshot } from '../../common/contract';
import { isHelperEnded, type HelperInfo, type HelperState } from '../../common/helpers';
import { planProgress, renderPlan } from '../../common/plan/render';
import { describeCompaction } from '../../common/contextWindow';
import { ControlStripper, stripControls } from './controlStripper';

export interface Output {
  write(text: string): void;
}

/**
 * How `keel run` shows a task to a person reading a terminal: streamed text, each tool call, the
 * plan. Everything it prints is stripped of control sequences: a model's text or a tool's output
 * must not retitle, recolour or otherwise drive the person's terminal.
 */
export class RunPrinter {
  private atLineStart = true;
  private readonly helperStates = new Map<string, HelperState>();
  private readonly text = new ControlStripper();

  constructor(private readonly out: Output) {}

  private line(text: string): void {
    this.text.reset();
    if (!this.atLineStart) this.out.write('\n');
    this.out.write(`${stripControls(text)}\n`);
    this.atLineStart = true;
  }

  plan(plan: PlanSnapshot): void {
    const { completed, total } = planProgress(plan.items);
    const who = plan.source === 'user' ? 'you' : 'agent';
    // The heading says the progress; what may start now, in a plan of dependencies, stays below the steps.
    const steps = renderPlan(plan.items).replace(/\n\n\(\d+\/\d+ completed(?:; ready to start: ([^\n]*))?\)$/, (_, ready?: string) =>
      ready ? `\nReady to start: ${ready}` : '',
    );
    this.line(`\n── Plan (${completed}/${total} done, changed by ${who}) ──\n${steps}\n`);
  }

  /** A helper's state as it changes (its own text and calls are not printed: they would interleave). */
  helper(info: HelperInfo): void {
    if (info.state === this.helperStates.get(info.id)) return;
    this.helperStates.set(info.id, info.state);
    const tool = info.tool && (info.state === 'tool' || info.state === 'waiting_approval') ? ` ${info.tool}` : '';
    const files = isHelperEnded(info.state) && info.changedFiles.length > 0 ? ` (${info.changedFiles.join(', ')}; ${info.merge})` : '';
    this.line(`  ◆ ${info.id} #${info.item}: ${info.state}${tool}${files}${info.reason ? ` — ${info.reason}` : ''}`);
  }

  event(event: AgentEvent): void {
    switch (event.type) {
      case 'text': {
        const shown = this.text.write(event.delta);
        if (shown === '') return;
        this.out.write(shown);
        this.atLineStart = shown.endsWith('\n');
        return;
      }
      case 'stream_retry':
        this.line(`[the connection broke; trying again (${event.attempt})]`);
        return;
      case 'tool_call':
        this.line(`● ${event.name} ${summariseInput(event.name, event.input)}`);
        return;
      case 'tool_result': {
        if (event.name === 'todo' && !event.isError) return; // the plan itself is printed instead
        const lines = stripControls(event.content).split('\n');
        const first = lines[0]?.slice(0, 160) ?? '';
        const more = lines.length > 1 ? ` (+${lines.length - 1} lines)` : '';
        this.line(`  ${event.isError ? '✗' : '⎿'} ${first}${more}`);
        return;
      }
      case 'notice':
        if (event.kind === 'plan_override') {
          this.line(`[keel: the agent's plan undid part of your plan edit:\n${event.message}]`);
          return;
        }
        this.line(
          `[keel: ${event.kind === 'gate' ? 'the plan is unfinished; asking the agent to continue' : event.kind === 'reminder' ? 'reminded the agent to update its plan' : event.kind === 'plan_update' ? 'told the agent of your plan edit' : 'the answer was cut by max_tokens; asking it to continue'}]`,
        );
        return;
      case 'compaction':
        this.line(`[keel: made room: ${describeCompaction(event)}]`);
        return;
      case 'task_finished':
        this.line(finishLine(event));
        return;
      default:
        return;
    }
  }
}

function finishLine(event: Extract<AgentEvent, { type: 'task_finished' }>): string {
  switch (event.outcome) {
    case 'done':
      return '✓ Done.';
    case 'stopped_unfinished':
      return `■ Stopped with an unfinished plan:\n${(event.unfinished ?? []).map((i) => `  [${i.status === 'in_progress' ? '>' : ' '}] #${i.id} ${i.content}`).join('\n')}`;
    case 'cancelled':
      return '■ Stopped. The session is saved; resume it with --resume.';
    default:
      return `✗ ${event.message ?? 'The task failed.'}`;
  }
}

function summariseInput(name: string, input: unknown): string {
  const fields = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  // Every line of a command: what runs is what the person reads.
  if (name === 'bash' && typeof fields.command === 'string') return `$ ${stripControls(fields.command).replace(/\n+$/, '').split('\n').join('\n    ')}`;
  if (typeof fields.path === 'string') return fields.path;
  if (typeof fields.pattern === 'string') return fields.pattern;
  if (name === 'todo' && Array.isArray(fields.items)) return `(${fields.items.length} items)`;
  return '';
}
