/** What tells two sessions apart in the list, besides their titles. Pure. */
export interface SessionHintInput {
  id: string;
  /** The title as the list shows it. */
  title: string;
  task?: string;
  updatedAt: string;
}

export interface SessionHint {
  /** The row's tooltip: the whole first task, then when the session was last used. */
  tooltip: string;
  /** Another session of the list shows the same title: the row gives its full date and time. */
  sameTitle: boolean;
}

export function sessionHints(sessions: readonly SessionHintInput[], language: string): Map<string, SessionHint> {
  const counts = new Map<string, number>();
  for (const session of sessions) counts.set(session.title, (counts.get(session.title) ?? 0) + 1);
  const hints = new Map<string, SessionHint>();
  for (const session of sessions) {
    const when = fullDateTime(session.updatedAt, language);
    hints.set(session.id, {
      tooltip: [session.task ?? session.title, when].filter((part) => part !== '').join('\n'),
      sameTitle: (counts.get(session.title) ?? 0) > 1,
    });
  }
  return hints;
}

/** Day and time to the second: what sets apart two sessions with one title. */
export function fullDateTime(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(
    date,
  );
}
