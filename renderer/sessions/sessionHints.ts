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
  /** When it was last used, day and time to the second ('' for a date that cannot be read). */
  when: string;
}

export function sessionHints(sessions: readonly SessionHintInput[], language: string): Map<string, SessionHint> {
  const counts = new Map<string, number>();
  for (const session of sessions) counts.set(session.title, (counts.get(session.title) ?? 0) + 1);
  // Day and time to the second: what sets apart two sessions with one title. One format for the list.
  const format = new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const hints = new Map<string, SessionHint>();
  for (const session of sessions) {
    const date = new Date(session.updatedAt);
    const when = Number.isNaN(date.getTime()) ? '' : format.format(date);
    hints.set(session.id, {
      tooltip: [session.task ?? session.title, when].filter((part) => part !== '').join('\n'),
      sameTitle: (counts.get(session.title) ?? 0) > 1,
      when,
    });
  }
  return hints;
}
