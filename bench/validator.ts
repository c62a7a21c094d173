import { validatePlan } from '../common/plan/validate';
import type { PlanItem } from '../common/plan/types';
import { sized } from './quick';
import { heading } from './stats';

/** Validator throughput on a 12-item plan, beside a bare structured clone of the same input as baseline. */
export function benchValidator(): void {
  heading('Plan validator: 12-item plan');
  const proposal = Array.from({ length: 12 }, (_, i) => ({
    content: `Step ${i + 1}: do the thing number ${i + 1}`,
    status: i < 4 ? 'completed' : i === 4 ? 'IN_PROGRESS' : 'pending',
    activeForm: `Doing thing ${i + 1}`,
  }));
  const first = validatePlan(proposal);
  if (!first.ok) throw new Error(first.error.message);
  const previous: PlanItem[] = first.items;

  const rate = (fn: () => unknown) => {
    for (let i = 0; i < sized(2_000, 200); i++) fn();
    const rounds = sized(50_000, 5_000);
    const start = performance.now();
    for (let i = 0; i < rounds; i++) fn();
    return rounds / ((performance.now() - start) / 1000);
  };
  const validations = rate(() => validatePlan(proposal, previous));
  const clones = rate(() => structuredClone(proposal));
  console.log(`validatePlan: ${Math.round(validations).toLocaleString('en')} plans/s (${(1e6 / validations).toFixed(1)} µs each)`);
  console.log(`baseline structuredClone of the same input: ${Math.round(clones).toLocaleString('en')}/s`);
  console.log(`ratio validate/clone time: ${(clones / validations).toFixed(2)}×`);

  // The same 12 steps as a graph: each with an id of its own, most waiting for earlier ones.
  const graph = proposal.map((step, i) => ({
    ...step,
    id: `step-${i + 1}`,
    blockedBy: i === 0 ? [] : i % 3 === 0 ? [`step-${i}`, `step-${i - 2}`] : [`step-${i}`],
  }));
  const stored = validatePlan(graph);
  if (!stored.ok) throw new Error(stored.error.message);
  const graphValidations = rate(() => validatePlan(graph, stored.items));
  const graphClones = rate(() => structuredClone(graph));
  console.log(
    `validatePlan, 12 items with dependencies: ${Math.round(graphValidations).toLocaleString('en')} plans/s (${(1e6 / graphValidations).toFixed(1)} µs each)`,
  );
  console.log(
    `baseline structuredClone of the same input: ${Math.round(graphClones).toLocaleString('en')}/s; ratio validate/clone time: ${(graphClones / graphValidations).toFixed(2)}×`,
  );
}
