/** The main area's place for the agent chat and terminal, which come with the agent. */
export function AgentPlaceholder() {
  return (
    <section className="agent-placeholder" aria-labelledby="agent-title">
      <div className="placeholder-card">
        <h2 id="agent-title">Agent</h2>
        <p>The agent chat arrives with the agent. Its conversation and the terminal will live here, beside the plan.</p>
        <p className="placeholder-note">Until then, the plan on the left is yours to shape: anything you change there is what the agent will see.</p>
      </div>
    </section>
  );
}
