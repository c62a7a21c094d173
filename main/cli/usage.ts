/** What `keel --help` prints, and what follows a usage error. */
export const USAGE = `Usage:
  keel web [--workspace DIR] [--port N]
      Serve the Keel window to a browser on 127.0.0.1 (the URL printed carries a secret token).
      Port: N, else 7460 when free, else any free port; 0 picks a free one.
  keel run [--workspace DIR] [--json] [--resume SESSION] [--trust-project-mcp] "task"
      Run one task headless in DIR (default: the current folder). The MCP servers of your
      settings start; the folder's .mcp.json servers only with --trust-project-mcp.
      Exit codes: 0 done, 3 stopped with an unfinished plan, 1 error, 2 usage, 130 interrupted.
  keel --version | --help

Model: ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, KEEL_MODEL (or ANTHROPIC_MODEL), or the settings file.
Data (sessions, settings.json) is kept in $KEEL_HOME, else ~/.keel.`;
