/** Strings of the integrated terminal: tabs, the agent's commands, copy and paste. */
export const terminal = {
  'terminal.tabs': 'Terminals',
  'terminal.agentTab': 'Agent',
  'terminal.agentTab.help': 'Every command the agent runs, live and read-only',
  'terminal.agentBadge': '{count} new agent commands',
  'terminal.showAgent': 'Show the agent’s commands',
  'terminal.new': 'New terminal',
  'terminal.close': 'Close {name}',
  'terminal.tabName': '{title} {n}',
  'terminal.exitedTab': '{name} (exited)',
  'terminal.exited': 'The process exited with code {code}.',
  'terminal.exitedSignal': 'The process was ended by signal {signal}.',
  'terminal.agentEmpty': 'Commands the agent runs appear here as they run.',
  'terminal.agentExit': 'exit code {code}',
  'terminal.startFailed': 'Could not start a shell: {message}',
  'terminal.noShell': 'No shell is open.',
  'terminal.region': 'Terminal {name}',
};
