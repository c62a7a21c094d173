/** The context window: the status bar's meter, "Compact now", instruction files, the compaction row. */
export const context = {
  'context.meter': '{used} / {window}',
  'context.meterLabel': 'Context:',
  'context.meterTitle':
    'Context: about {used} of {window} tokens ({percent}%). Keel makes room at {threshold} tokens: older tool results are cleared first, then older messages are summarised. The plan is kept apart and never lost.',
  'context.compactNow': 'Compact now',
  'context.compacting': 'Compacting…',
  'context.compactTitle': 'Summarise the older conversation now to make room (the plan and the transcript are kept)',
  'context.compactNothing': 'Nothing to compact yet',
  'context.compactFailed': 'Compacting failed: {message}',
  'context.instructions.one': '{name}',
  'context.instructions.many': '{count} instruction files',
  'context.instructionsTitle': 'Instruction files given to the agent at the start of each task:',
  'context.instructions.user': '(yours, every workspace)',
  'context.instructions.cut': '(cut to fit: the rest stays in the file)',
  'chat.compaction.cleared': 'Keel made room: cleared {count} old tool results ({before} → {after} tokens)',
  'chat.compaction.summarized': 'Keel made room: summarised {count} earlier messages ({before} → {after} tokens)',
  'chat.compaction.summaryHeading': 'Summary the agent continues from',
  'chat.compaction.clearedHeading': 'Cleared (the agent can read or run these again)',
  'chat.compaction.reason.threshold': 'the conversation neared the context window',
  'chat.compaction.reason.refused': 'the model refused the request as too long',
  'chat.compaction.reason.manual': 'you asked for it',
};
