import type { ReactNode } from 'react';

/** A labelled form field with its note under it. */
export function Field({
  label,
  htmlFor,
  note,
  noteId,
  children,
}: {
  label: string;
  htmlFor: string;
  note?: string | undefined;
  noteId?: string;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={htmlFor}>
        {label}
      </label>
      {children}
      {note ? (
        <p className="field-note" id={noteId}>
          {note}
        </p>
      ) : null}
    </div>
  );
}
