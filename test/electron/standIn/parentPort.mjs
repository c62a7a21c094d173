// `node --import ./parentPort.mjs <module>`: a Node child given what an Electron utility process
// has instead of Node's IPC: `process.parentPort` (messages as { data }, postMessage; messages wait
// until a 'message' listener is added, as Electron starts the port then), and no `process.send`,
// so a module that still used Node's channel would go unheard.
import { EventEmitter } from 'node:events';

const send = process.send.bind(process);
const port = new EventEmitter();
const waiting = [];
let started = false;
port.postMessage = (message) => send(message);
port.on('newListener', (event) => {
  if (event !== 'message' || started) return;
  started = true;
  setImmediate(() => {
    for (const data of waiting.splice(0)) port.emit('message', { data });
  });
});
process.on('message', (data) => {
  if (started) port.emit('message', { data });
  else waiting.push(data);
});
process.parentPort = port;
process.send = undefined;
