import { settledOutcome } from '../../common/plan/sessionState';
import { useState, type KeyboardEvent } from 'react';
import type { AgentState, TaskOutcome } from '../../common/agentEvents';
import type { RecentFolder, SessionSummary, WorkspaceInfo } from '../../common/contract';
import { ChatIcon } from '../ui/icons';
import { useI18n } from '../i18n/I18nProvider';
import type { MessageKey } from '../i18n/messages';
import { FolderIcon, PlusIcon, TrashIcon } from '../ui/icons';
import { DeleteSessionDialog } from './DeleteSessionDialog';
import { formatSessionDate } from './formatDate';
import { sessionHints } from './sessionHints';
import type { SessionsState } from './useSessions';

const OUTCOME_LABELS: Record<TaskOutcome, MessageKey> = {
  done: 'sessions.outcome.done',
  stopped_unfinished: 'sessions.outcome.stopped_unfinished',
  cancelled: 'sessions.outcome.cancelled',
  error: 'sessions.outcome.error',
  refused: 'sessions.outcome.refused',
};

/**
 * main titles a session without a task yet "New session", and one begun with only a picture "";
 * the window says them in the person's language.
 */
export function sessionTitle(session: SessionSummary, t: ReturnType<typeof useI18n>['t']): string {
  if (session.title === '') return t('common.pictureOnly');
  return session.title === 'New session' && session.lastOutcome === null ? t('sessions.untitled') : session.title;
}

interface Props {
  id: string;
  width: number;
  workspace: WorkspaceInfo;
  state: SessionsState;
  /** Where deleted transcripts go (the data folder's trash/). */
  trashFolder: string | null;
  /** Whether a task runs in the open session. */
  running: boolean;
  agentState: AgentState;
  onOpenFolder(path: string): void;
}

/** The open folder's sessions (new, open, delete) and the recent folders. */
export function SessionsSidebar({ id, width, workspace, state, trashFolder, running, agentState, onOpenFolder }: Props) {
  const { t, language } = useI18n();
  const [deleting, setDeleting] = useState<SessionSummary | null>(null);
  const { sessions, recent, error } = state;
  const hints = sessionHints(
    (sessions ?? []).map((session) => ({ ...session, title: sessionTitle(session, t) })),
    language,
  );
  const [focusedId, setFocusedId] = useState<string | null>(null);
  // One stop in the Tab order for the whole list (roving tabindex): the row last focused, else the
  // open session. ↑/↓/Home/End move between rows; Delete asks to delete the focused one. Only that
  // row's delete button is in the Tab order.
  const rovingId = sessions?.some((session) => session.id === focusedId)
    ? focusedId
    : (sessions?.find((session) => session.id === workspace.sessionId)?.id ?? sessions?.[0]?.id ?? null);
  const onRowKey = (event: KeyboardEvent<HTMLButtonElement>, session: SessionSummary) => {
    const buttons = [...(event.currentTarget.closest('.session-list')?.querySelectorAll<HTMLButtonElement>('.session-open') ?? [])];
    const index = buttons.indexOf(event.currentTarget);
    const target =
      event.key === 'ArrowDown'
        ? buttons[index + 1]
        : event.key === 'ArrowUp'
          ? buttons[index - 1]
          : event.key === 'Home'
            ? buttons[0]
            : event.key === 'End'
              ? buttons.at(-1)
              : undefined;
    if (target) {
      event.preventDefault();
      target.focus();
    } else if (event.key === 'Delete') {
      event.preventDefault();
      setDeleting(session);
    }
  };

  return (
    <nav id={id} className="sidebar" aria-label={t('sessions.navLabel')} style={{ width }}>
      <section className="sidebar-section" aria-labelledby="sessions-heading">
        <div className="sidebar-head">
          <h2 id="sessions-heading">{t('sessions.heading')}</h2>
          <button
            type="button"
            className="button button-small sidebar-new"
            onClick={() => void state.newSession()}
            disabled={running}
            title={running ? t('sessions.busy') : undefined}
          >
            <PlusIcon />
            {t('sessions.new')}
          </button>
        </div>
        {error ? (
          <p role="alert" className="error-message sidebar-error">
            {error}
          </p>
        ) : null}
        {sessions === null ? null : sessions.length === 0 ? (
          <p className="sidebar-empty">{t('sessions.empty')}</p>
        ) : (
          <ul className="session-list">
            {sessions.map((session) => {
              const current = session.id === workspace.sessionId;
              const title = sessionTitle(session, t);
              const hint = hints.get(session.id);
              const outcome = current && running ? null : settledOutcome(session.lastOutcome, session.openSteps, session.openAtEnd);
              return (
                <li key={session.id} className={`session-row${current ? ' is-current' : ''}`}>
                  <button
                    type="button"
                    className="session-open"
                    title={hint?.tooltip}
                    aria-current={current ? 'true' : undefined}
                    aria-keyshortcuts="Delete"
                    tabIndex={session.id === rovingId ? 0 : -1}
                    onFocus={() => setFocusedId(session.id)}
                    onKeyDown={(event) => onRowKey(event, session)}
                    onClick={() => {
                      if (!current) void state.openSession(session.id);
                    }}
                  >
                    <ChatIcon />
                    <span className="session-text">
                      <span className="session-title">{title}</span>
                      <span className="session-meta">
                        {current && running ? (
                          <span className="session-state" data-state="running">
                            {t(agentState === 'waiting_approval' ? 'status.state.waiting_approval' : 'sessions.running')}
                          </span>
                        ) : outcome ? (
                          <span className="session-state" data-state={outcome}>
                            {t(OUTCOME_LABELS[outcome])}
                          </span>
                        ) : null}
                        <time dateTime={session.updatedAt}>{hint?.sameTitle ? hint.when : formatSessionDate(session.updatedAt, language)}</time>
                      </span>
                    </span>
                  </button>
                  <button
                    type="button"
                    className="icon-button icon-button-danger session-delete"
                    aria-label={t('sessions.deleteNamed', { title })}
                    title={t('sessions.delete')}
                    tabIndex={session.id === rovingId ? 0 : -1}
                    onClick={() => setDeleting(session)}
                  >
                    <TrashIcon />
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </section>

      {recent.length > 0 ? (
        <section className="sidebar-section" aria-labelledby="recent-heading">
          <div className="sidebar-head">
            <h2 id="recent-heading">{t('folders.recent')}</h2>
          </div>
          <RecentFolderList recent={recent} currentPath={workspace.path} onOpen={onOpenFolder} />
        </section>
      ) : null}

      {deleting ? (
        <DeleteSessionDialog
          title={sessionTitle(deleting, t)}
          trashFolder={trashFolder}
          onCancel={() => setDeleting(null)}
          onConfirm={async () => {
            const result = await state.deleteSession(deleting.id);
            setDeleting(null);
            return result.ok;
          }}
        />
      ) : null}
    </nav>
  );
}

export function RecentFolderList({ recent, currentPath, onOpen }: { recent: readonly RecentFolder[]; currentPath: string | null; onOpen(path: string): void }) {
  return (
    <ul className="folder-list">
      {recent.map((folder) => {
        const current = folder.path === currentPath;
        return (
          <li key={folder.path}>
            <button
              type="button"
              className={`folder-open${current ? ' is-current' : ''}`}
              aria-current={current ? 'true' : undefined}
              title={folder.path}
              onClick={() => {
                if (!current) onOpen(folder.path);
              }}
            >
              <FolderIcon />
              <span className="folder-text">
                <span className="folder-name">{folder.name}</span>
                <span className="folder-path mono">
                  <bdi>{folder.path}</bdi>
                </span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
