import { describe, it, expect } from 'vitest';

import { renderPlan } from '../../../common/plan/render';
import { TODO_TOOL_NAME, todoToolDefinition } from '../../../common/plan/todoToolDefinition';
import { PlanStore } from '../../../main/plan/store';
import { runTodoTool } from '../../../main/plan/runTodoTool';

const hello = {
  items: [
    { content: 'Read the existing code', status: 'completed' },
    { content: 'Write hello.py', status: 'in_progress', activeForm: 'writing hello.py' },
    { content: 'Run it and check the output', status: 'pending' },
  ],
};

describe('the todo tool definition', () => {
  it('is named todo and asks for the whole list every time', () => {
    expect(todoToolDefinition.name).toBe(TODO_TOOL_NAME);
    expect(TODO_TOOL_NAME).toBe('todo');
    expect(todoToolDefinition.description).toContain('WHOLE list');
  });

  it('has an object input schema with an items array of content and a status enum', () => {
    const schema = todoToolDefinition.input_schema as {
      type: string;
      required: string[];
      properties: {
        items: { type: string; maxItems: number; items: { type: string; required: string[]; properties: Record<string, { type: string; enum?: string[] }> } };
      };
    };
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual(['items']);
    const items = schema.properties.items;
    expect(items.type).toBe('array');
    expect(items.maxItems).toBe(12);
    expect(items.items.type).toBe('object');
    expect(items.items.properties.content!.type).toBe('string');
    expect(items.items.properties.status!.enum).toEqual(['pending', 'in_progress', 'completed']);
    expect(items.items.required).toEqual(expect.arrayContaining(['content', 'status']));
    expect(Object.keys(items.items.properties).sort()).toEqual(['activeForm', 'blockedBy', 'content', 'id', 'status']);
  });
});

describe('runTodoTool', () => {
  it('stores the plan and answers with it rendered as text', () => {
    const store = new PlanStore();
    const outcome = runTodoTool(store, hello, 0);
    expect(outcome).toEqual({
      content: '[x] #1 Read the existing code\n[>] #2 Write hello.py (writing hello.py)\n[ ] #3 Run it and check the output\n\n(1/3 completed)',
      isError: false,
      seenVersion: 1,
    });
    expect(store.current?.source).toBe('agent');
  });

  it('normalises the status case the model sent', () => {
    const store = new PlanStore();
    runTodoTool(store, { items: [{ content: 'A', status: 'COMPLETED' }] }, 0);
    expect(store.items[0]!.status).toBe('completed');
  });

  it('answers an invalid list with is_error, the validator message and the unchanged plan', () => {
    const store = new PlanStore();
    runTodoTool(store, hello, 0);
    const before = store.current;
    const outcome = runTodoTool(store, { items: [{ content: 'Write hello.py', status: 'done' }] }, 1);
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('Plan refused; nothing was changed.');
    expect(outcome.content).toContain('status "done" is not one of pending, in_progress, completed');
    expect(outcome.content).toContain(`The plan is still:\n${renderPlan(before!.items)}`);
    expect(store.current).toBe(before);
    expect(outcome.seenVersion).toBe(1);
  });

  it('answers a call without items with is_error', () => {
    const store = new PlanStore();
    for (const input of [{}, null, 'items']) {
      const outcome = runTodoTool(store, input, 0);
      expect(outcome.isError).toBe(true);
      expect(outcome.content).toContain('`items` must be a list');
    }
    expect(store.version).toBe(0);
  });

  it('refuses a rewrite made before an unseen user edit, showing the change and the current plan', () => {
    const store = new PlanStore();
    runTodoTool(store, hello, 0);
    const [read, write] = store.items;
    store.propose([read, write, { content: 'Run it with python3 and check the output' }, { content: 'Write a README' }], {
      source: 'user',
      baseVersion: 1,
    });
    const userPlan = store.current;

    const stale = { items: [hello.items[0], { ...hello.items[1], status: 'completed' }, hello.items[2]] };
    const outcome = runTodoTool(store, stale, 1);
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('the person edited the plan');
    expect(outcome.content).toContain('- reworded "Run it and check the output" to "Run it with python3 and check the output"');
    expect(outcome.content).toContain('- added "Write a README" (pending) at position 4');
    expect(outcome.content).toContain(renderPlan(userPlan!.items));
    expect(store.current).toBe(userPlan);
    expect(outcome.seenVersion).toBe(2);

    const rebased = {
      items: [
        { content: 'Read the existing code', status: 'completed' },
        { content: 'Write hello.py', status: 'completed' },
        { content: 'Run it with python3 and check the output', status: 'in_progress' },
        { content: 'Write a README' },
      ],
    };
    const retry = runTodoTool(store, rebased, outcome.seenVersion);
    expect(retry.isError).toBe(false);
    expect(retry.seenVersion).toBe(3);
    expect(store.items.map((i) => i.id)).toEqual(userPlan!.items.map((i) => i.id));
  });

  it('does not refuse after the agent has been shown the user edit', () => {
    const store = new PlanStore();
    runTodoTool(store, hello, 0);
    store.propose([{ content: 'Only step' }], { source: 'user' });
    expect(runTodoTool(store, { items: [{ content: 'Only step', status: 'completed' }] }, 2).isError).toBe(false);
  });

  it('does not treat the agent’s own newer versions as an unseen edit', () => {
    const store = new PlanStore();
    runTodoTool(store, hello, 0);
    runTodoTool(store, hello, 1);
    expect(runTodoTool(store, hello, 1).isError).toBe(false);
  });
});
