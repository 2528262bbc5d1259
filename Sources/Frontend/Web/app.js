// The page: one websocket connection, a hash router over the views, the theme, sign-in and the banner.
import { Connection } from './api.js';
import { choice, toast } from './ui.js';
import { DevicesView } from './devices.js';
import { DeviceView } from './device.js';
import { BLEView } from './ble.js';
import { BridgeView } from './bridge.js';
import { LogsView, keep, remember } from './logs.js';

const connection = new Connection();
const view = document.getElementById('view');
const theme = choice('theme', 'auto');
let current = null;
let route = '';
let scheduled = false;

function applyTheme() {
  const value = theme.get();
  if (value === 'auto') delete document.documentElement.dataset.theme; else document.documentElement.dataset.theme = value;
  document.getElementById('theme').textContent = { auto: 'Theme: auto', light: 'Theme: light', dark: 'Theme: dark' }[value];
}

function open() {
  const hash = location.hash || '#/devices';
  if (hash === route && current) return;
  route = hash;
  const [, page = 'devices', ...rest] = hash.slice(1).split('/');
  current?.unmount?.();
  view.replaceChildren();
  const views = { devices: DevicesView, device: DeviceView, ble: BLEView, bridge: BridgeView, logs: LogsView };
  const View = views[page] || DevicesView;
  current = new View(connection, decodeURIComponent(rest.join('/')));
  current.mount(view);
  for (const link of document.querySelectorAll('#nav a')) link.classList.toggle('active', link.dataset.page === (page === 'device' ? 'devices' : page));
}

/// Coalesces bursts of messages into one update per frame.
function refresh() {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    banner();
    current?.update?.();
  });
}

function banner() {
  const info = connection.info;
  const element = document.getElementById('banner');
  const needed = info?.restart_required;
  element.hidden = !needed;
  if (needed) element.textContent = `Restart things2mqtt to apply the changed config: ${(info.restart_required_for || []).join(', ')}`;
}

function showLogin(visible, message = '') {
  document.getElementById('login').hidden = !visible;
  document.getElementById('login-error').textContent = message;
  view.hidden = visible;
  if (visible) document.getElementById('token').focus();
}

connection.addEventListener('status', ({ detail }) => {
  const link = document.getElementById('link');
  link.classList.toggle('open', detail === 'open');
  link.title = { open: 'Connected', closed: 'Reconnecting…', unauthorized: 'Sign-in needed', connecting: 'Connecting…' }[detail];
  document.getElementById('logout').hidden = !connection.token;
  if (detail === 'unauthorized') showLogin(true, connection.token ? 'Wrong token' : '');
  if (detail === 'open') showLogin(false);
  refresh();
});
connection.addEventListener('message', refresh);
connection.addEventListener('event', (event) => { remember(event.detail); current?.event?.(event.detail); });
connection.addEventListener('log', (event) => { keep(event.detail); current?.log?.(event.detail); });
connection.addEventListener('failure', ({ detail }) => toast(detail, true));

document.getElementById('login').addEventListener('submit', (event) => {
  event.preventDefault();
  connection.token = document.getElementById('token').value;
  document.getElementById('token').value = '';
  connection.reconnect();
});
document.getElementById('logout').addEventListener('click', () => {
  connection.token = '';
  connection.reconnect();
});
document.getElementById('theme').addEventListener('click', () => {
  theme.set({ auto: 'light', light: 'dark', dark: 'auto' }[theme.get()] || 'auto');
  applyTheme();
});
window.addEventListener('hashchange', open);
// Relative times stay live without messages.
setInterval(() => current?.tick?.(), 1000);

applyTheme();
open();
connection.connect();
window.things2mqtt = connection;
