import type { ReactNode } from 'react';
import type { ValueSource } from '../../common/modelCapabilities';
import type { SettingSource } from '../../common/settings';
import { SourceTag } from './SourceTag';

/** A labelled form field with its note under it, and where its value comes from beside the label. */
export function Field({
  label,
  htmlFor,
  note,
  noteId,
  source,
  children,
}: {
  label: string;
  htmlFor: string;
  note?: string | undefined;
  noteId?: string;
  source?: SettingSource | ValueSource | undefined;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <div className="field-label-row">
        <label className="field-label" htmlFor={htmlFor}>
          {label}
        </label>
        {source ? <SourceTag source={source} /> : null}
      </div>
      {children}
      {note ? (
        <p className="field-note" id={noteId}>
          {note}
        </p>
      ) : null}
    </div>
  );
}
