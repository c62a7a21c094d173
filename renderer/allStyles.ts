// Every stylesheet of the window, in the order the cascade has always had them (styles.css last,
// so that it wins the ties). Only main.tsx imports this, and no other module imports a stylesheet:
// a part that loads later (ui/lazyPart.ts) would otherwise add its styles after styles.css, and
// they would win ties they used to lose (the Stop button's colour, for one).
import './changes/changes.css';
import './plan/plan.css';
import './chat/chat.css';
import './plan/graph.css';
import './plan/helpers.css';
import './settings/mcp.css';
import './settings/sources.css';
import './status/context.css';
import '@xterm/xterm/css/xterm.css';
import './terminal/terminal.css';
import './styles.css';
