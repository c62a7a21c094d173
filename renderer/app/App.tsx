import { PlanBoard } from '../plan/PlanBoard';
import { AgentPlaceholder } from './AgentPlaceholder';
import { useWorkspace } from './useWorkspace';
import { WorkspaceHeader } from './WorkspaceHeader';

/** The window: the open folder on top, the plan as a side panel, the agent's area beside it. */
export function App() {
  const state = useWorkspace();
  const { workspace } = state;
  return (
    <div className="app">
      <WorkspaceHeader {...state} />
      <div className="app-body">
        <aside className="side-panel" aria-label="Plan board">
          {workspace ? (
            <PlanBoard key={workspace.sessionId} sessionId={workspace.sessionId} />
          ) : workspace === null ? (
            <div className="side-empty">
              <p className="empty-title">No folder open.</p>
              <p>Open a folder to see its plan. Each folder keeps its own plan with its session.</p>
            </div>
          ) : null}
        </aside>
        <main className="main-pane">
          <AgentPlaceholder />
        </main>
      </div>
    </div>
  );
}
