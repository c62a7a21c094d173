/** What an empty board says: what the plan is for and who writes it. */
export function EmptyPlan() {
  return (
    <div className="empty-plan">
      <p className="empty-title">No plan yet.</p>
      <p>
        The plan is the agent&rsquo;s checklist for the current task: it writes it with its todo tool, and you can add, reword,
        reorder or tick off steps here at any time; the agent sees your changes on its next step.
      </p>
    </div>
  );
}
