import { ok } from '../../../common/result';
import { removeMcpServer, saveMcpServer, setMcpAlwaysAllowed } from '../../settings/mcpSettings';
import type { HandlerContext } from '../handlerContext';
import type { Handlers } from '../dispatch';

type McpChannels = 'mcp.list' | 'mcp.restart' | 'mcp.trustProject' | 'mcp.saveServer' | 'mcp.removeServer' | 'mcp.setAlwaysAllowed';

export function mcpHandlers(core: Pick<HandlerContext, 'mcp' | 'options'>): Pick<Handlers, McpChannels> {
  const dataDir = core.options.dataDir;
  return {
    'mcp.list': () => ok(core.mcp.list()),
    'mcp.restart': async ({ scope, name }) => {
      await core.mcp.restart(scope, name);
      return ok(core.mcp.list());
    },
    'mcp.trustProject': async ({ trust }) => {
      await core.mcp.trustProject(trust);
      return ok(core.mcp.list());
    },
    'mcp.saveServer': ({ name, config, previousName }) => {
      const saved = saveMcpServer(dataDir, name, config, previousName);
      if (!saved.ok) return saved;
      core.mcp.reload();
      return ok(core.mcp.list());
    },
    'mcp.removeServer': ({ name }) => {
      removeMcpServer(dataDir, name);
      core.mcp.reload();
      return ok(core.mcp.list());
    },
    'mcp.setAlwaysAllowed': ({ rule, allowed }) => {
      setMcpAlwaysAllowed(dataDir, rule, allowed);
      return ok(core.mcp.list());
    },
  };
}
