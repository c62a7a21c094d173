import { memo, useCallback, useId, useRef, type DragEvent, type KeyboardEvent } from 'react';
import type { Readiness } from '../../common/plan/graph';
import type { HelperView } from '../helpers/helperState';
import type { HelperStore } from '../helpers/helperStore';
import type { PlanItem } from '../../common/plan/types';
import { useI18n } from '../i18n/I18nProvider';
import { ArrowDownIcon, ArrowUpIcon, GripIcon, LinkIcon, StatusIcon, TrashIcon } from '../ui/icons';
import { DependencyPicker } from './DependencyPicker';
import { ErrorList } from './ErrorList';
import { HelperPanel } from './HelperPanel';
import { ItemDependencies } from './ItemDependencies';
import { ItemText } from './ItemText';
import type { BoardProblem } from './proposals';
import { StatusSelect } from './StatusSelect';
import type { RowHandlers } from './useRowHandlers';

export type DropSide = 'before' | 'after';

export interface DragHandlers {
  onDragStart(event: DragEvent<HTMLElement>): void;
  onDragOver(event: DragEvent<HTMLLIElement>): void;
  onDrop(event: DragEvent<HTMLLIElement>): void;
  onDragEnd(): void;
}

interface Props {
  item: PlanItem;
  /** The stored steps this one waits for, in its blockedBy order. */
  waitsFor: readonly PlanItem[];
  readiness: Readiness;
  /** Some step of the plan waits for another: pending steps then say whether they are ready. */
  graph: boolean;
  first: boolean;
  last: boolean;
  errors: readonly BoardProblem[];
  /** The task stopped while this step was in progress: shown as interrupted until work resumes. */
  interrupted: boolean;
  editing: boolean;
  hintId: string;
  dragging: boolean;
  dropSide: DropSide | null;
  /** The whole stored plan while this step's dependency picker is open; undefined while it is closed. */
  pickerItems: readonly PlanItem[] | undefined;
  /** Made once per step (useRowHandlers, useDragReorder): they never change a row's rendering. */
  handlers: RowHandlers;
  drag: DragHandlers;
  /** The helper that works (or worked) this step, shown under it; the same object while nothing it shows changed. */
  helper?: HelperView;
  helperStore?: HelperStore;
}

/**
 * One step of the plan: marker, text, status, and the controls that change it. Memoized: an edit
 * renders again only the rows whose step, or what they show of the steps they wait for, changed.
 */
export const PlanItemRow = memo(function PlanItemRow(props: Props) {
  const { item, first, last, errors, drag, handlers } = props;
  const { t } = useI18n();
  const content = item.content;
  const picking = props.pickerItems !== undefined;
  const pickerId = useId();
  const pickerButton = useRef<HTMLButtonElement>(null);
  const closePicker = useCallback(() => {
    handlers.onPicker(false);
    pickerButton.current?.focus();
  }, [handlers]);
  const state = props.readiness;

  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    const target = event.target as HTMLElement;
    if (target.tagName === 'INPUT' || target.tagName === 'SELECT') return;
    event.preventDefault();
    handlers.onMove(event.key === 'ArrowUp' ? -1 : 1, target.dataset.part ?? 'text');
  };

  const classes = ['plan-item', `is-${item.status}`];
  if (errors.length > 0) classes.push('has-error');
  if (props.interrupted) classes.push('is-interrupted');
  if (props.editing) classes.push('is-editing');
  if (props.dragging) classes.push('is-dragging');
  if (props.dropSide) classes.push(`drop-${props.dropSide}`);
  if (props.graph && state === 'blocked') classes.push('is-blocked');

  return (
    <li className={classes.join(' ')} data-item-id={item.id} data-status={item.status} onKeyDown={onKeyDown} onDragOver={drag.onDragOver} onDrop={drag.onDrop}>
      <span
        className="drag-handle"
        draggable
        data-part="handle"
        title={t('plan.item.dragTitle')}
        aria-hidden="true"
        onDragStart={drag.onDragStart}
        onDragEnd={drag.onDragEnd}
      >
        <GripIcon />
      </span>
      <span className="item-marker">
        <StatusIcon status={item.status} />
      </span>
      <div className="item-main">
        <ItemText
          content={item.content}
          editing={props.editing}
          onStartEdit={handlers.onStartEdit}
          onStopEdit={handlers.onStopEdit}
          onSave={handlers.onReword}
          hintId={props.hintId}
        />
        {item.status === 'in_progress' && item.activeForm ? <p className="active-form">{item.activeForm}…</p> : null}
        <ItemDependencies item={item} waitsFor={props.waitsFor} />
        <div className="item-meta">
          <span className="item-id" title={t('plan.item.idTitle')}>
            #{item.id}
          </span>
          <StatusSelect status={item.status} content={item.content} onChange={handlers.onStatus} />
          {props.graph && state === 'ready' ? (
            <span className="readiness-badge is-ready" title={t('plan.readyTitle')}>
              {t('plan.ready')}
            </span>
          ) : null}
          {props.interrupted ? (
            <span className="interrupted-badge" title={t('plan.item.interruptedTitle')}>
              {t('plan.item.interrupted')}
            </span>
          ) : null}
          {/* In the meta line, not over the text: hovering never hides the step's first line (16.9). */}
          <div className="item-actions">
            <button
              type="button"
              ref={pickerButton}
              className={`icon-button${picking ? ' is-active' : ''}`}
              aria-label={t('plan.deps.edit', { content })}
              title={t('plan.deps.editTitle')}
              aria-expanded={picking}
              aria-controls={picking ? pickerId : undefined}
              data-part="deps"
              onClick={() => (picking ? closePicker() : handlers.onPicker(true))}
            >
              <LinkIcon />
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label={t('plan.item.moveUp', { content })}
              title={t('plan.item.moveUpTitle')}
              data-part="up"
              disabled={first}
              onClick={() => handlers.onMove(-1, 'up')}
            >
              <ArrowUpIcon />
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label={t('plan.item.moveDown', { content })}
              title={t('plan.item.moveDownTitle')}
              data-part="down"
              disabled={last}
              onClick={() => handlers.onMove(1, 'down')}
            >
              <ArrowDownIcon />
            </button>
            <button
              type="button"
              className="icon-button icon-button-danger"
              aria-label={t('plan.item.delete', { content })}
              title={t('plan.item.deleteTitle')}
              data-part="delete"
              onClick={handlers.onDelete}
            >
              <TrashIcon />
            </button>
          </div>
        </div>
        {props.pickerItems ? (
          <DependencyPicker id={pickerId} item={item} items={props.pickerItems} onToggle={handlers.onDependency} onClose={closePicker} />
        ) : null}
        {props.helper && props.helperStore ? <HelperPanel view={props.helper} store={props.helperStore} hintId={props.hintId} /> : null}
      </div>
      <ErrorList problems={errors} className="item-errors" onStartInstead={handlers.onStartInstead} />
    </li>
  );
}, sameRow);

/** Rows compare by what they show: stored items arrive as new objects with every version. */
function sameRow(a: Props, b: Props): boolean {
  return (
    sameItem(a.item, b.item) &&
    a.readiness === b.readiness &&
    a.graph === b.graph &&
    a.first === b.first &&
    a.last === b.last &&
    a.errors === b.errors &&
    a.interrupted === b.interrupted &&
    a.editing === b.editing &&
    a.hintId === b.hintId &&
    a.dragging === b.dragging &&
    a.dropSide === b.dropSide &&
    a.pickerItems === b.pickerItems &&
    a.handlers === b.handlers &&
    a.drag === b.drag &&
    a.helper === b.helper &&
    a.helperStore === b.helperStore &&
    a.waitsFor.length === b.waitsFor.length &&
    a.waitsFor.every((other, i) => sameItem(other, b.waitsFor[i]!))
  );
}

function sameItem(a: PlanItem, b: PlanItem): boolean {
  return (
    a.id === b.id &&
    a.content === b.content &&
    a.status === b.status &&
    a.activeForm === b.activeForm &&
    a.owner === b.owner &&
    (a.blockedBy ?? []).join('\n') === (b.blockedBy ?? []).join('\n')
  );
}
