/** Strings of the plan board. */
export const plan = {
  'plan.title': 'Plan',
  'plan.steps': 'Plan steps',
  'plan.lastChange.agent': 'Last change: agent',
  'plan.lastChange.you': 'Last change: you',
  'plan.versionChip': 'v{version}',
  'plan.versionTitle': 'Version {version}, {date}',
  'plan.progress': '{completed} of {total} completed',
  'plan.progressLabel': 'Plan progress',
  'plan.empty.title': 'No plan yet.',
  'plan.empty.text':
    'The plan is the agent’s checklist for the current task: it writes it with its todo tool, and you can add, reword, reorder or tick off steps here at any time; the agent sees your changes on its next step.',
  'plan.hint': 'Enter or F2 rewords a step · Alt+↑/↓ moves it · drag the handle to reorder',

  'plan.add.label': 'New step',
  'plan.add.placeholder': 'Add a step…',
  'plan.add.button': 'Add',

  'plan.item.reword': 'Reword "{content}"',
  'plan.item.rewordTitle': 'Click, Enter or F2 to reword',
  'plan.item.dragTitle': 'Drag to reorder',
  'plan.item.moveUp': 'Move "{content}" up',
  'plan.item.moveUpTitle': 'Move up (Alt+↑)',
  'plan.item.moveDown': 'Move "{content}" down',
  'plan.item.moveDownTitle': 'Move down (Alt+↓)',
  'plan.item.delete': 'Delete "{content}"',
  'plan.item.deleteTitle': 'Delete',

  'plan.status.label': 'Status of {content}',
  'plan.status.pending': 'Pending',
  'plan.status.in_progress': 'In progress',
  'plan.status.completed': 'Completed',


  'plan.stopped.title': 'Stopped with an unfinished plan',
  'plan.stopped.text':
    'The agent ended its turn with steps still open, so Keel stopped the task rather than let it loop: {open} of {total} steps are not done. Let it continue, or mark the plan done if the work is finished.',
  'plan.stopped.continue': 'Continue',
  'plan.stopped.continueMessage': 'Continue with the unfinished steps of the plan.',
  'plan.stopped.markDone': 'Mark the plan done',
  'plan.stopped.markDoneFailed': 'The plan could not be marked done; the board shows why.',
} as const;
