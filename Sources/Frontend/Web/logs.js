// Logs: the bridge writes its log to stderr (the journal), not to MQTT, so the page shows what MQTT carries:
// bridge events, live, filterable, and the log level, which the bridge takes through `bridge/request/options`.
import { attempt, h } from './ui.js';

const LEVELS = ['trace', 'debug', 'info', 'notice', 'warning', 'error', 'critical'];
const held = [];
const LIMIT = 500;

export function remember(event) {
  if (event.topic !== 'bridge/event') return;
  held.unshift(event);
  held.length = Math.min(held.length, LIMIT);
}

export class LogsView {
  constructor(connection) { this.connection = connection; }

  mount(root) {
    this.filter = h('input', { type: 'search', placeholder: 'Filter events', 'aria-label': 'Filter', oninput: () => this.render() });
    this.list = h('div', { class: 'events', id: 'log-events' });
    this.level = h('select', { 'aria-label': 'Log level', onchange: () => attempt(() => this.connection.request('options', { options: { log_level: this.level.value } }), `Log level ${this.level.value}`) },
      ...LEVELS.map((level) => h('option', { value: level }, level)));
    const download = h('button', { type: 'button', onclick: () => this.download() }, 'Download');
    root.append(
      h('h1', {}, 'Logs'),
      h('p', { class: 'muted' }, 'The log itself goes to the journal (journalctl -u things2mqtt); here are the bridge\'s events as they happen.'),
      h('div', { class: 'tools' }, this.filter, this.level, download),
      this.list);
    this.update();
  }

  event(event) { this.render(); }

  update() {
    const level = this.connection.info?.log_level;
    if (level && document.activeElement !== this.level) this.level.value = level;
    this.render();
  }

  render() {
    const text = this.filter.value.trim().toLowerCase();
    const shown = held.filter((event) => !text || JSON.stringify(event.payload).toLowerCase().includes(text)).slice(0, 200);
    this.list.replaceChildren(...shown.map(({ payload, at }) => h('div', { class: 'event' },
      h('span', { class: 'muted' }, new Date(at).toLocaleTimeString()), ' ', h('strong', {}, payload?.type || ''), ' ', JSON.stringify(payload?.data ?? payload))));
    if (!shown.length) this.list.append(h('p', { class: 'muted' }, 'No events yet.'));
  }

  download() {
    const blob = new Blob([held.map((event) => JSON.stringify({ at: new Date(event.at).toISOString(), ...event.payload })).join('\n') + '\n'], { type: 'application/x-ndjson' });
    const link = h('a', { href: URL.createObjectURL(blob), download: 'things2mqtt-events.ndjson' });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }
}
