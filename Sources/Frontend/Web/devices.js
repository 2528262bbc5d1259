// Devices: every device the bridge knows, live, with its availability, signal, battery and last sighting.
import { ago, choice, displayName, h, signal } from './ui.js';

const sortChoice = choice('devices.sort', 'name');
const familyChoice = choice('devices.family', '');
const textChoice = choice('devices.filter', '');

const sorts = {
  name: (a, b) => a.name.localeCompare(b.name),
  family: (a, b) => a.device.integration.localeCompare(b.device.integration) || a.name.localeCompare(b.name),
  status: (a, b) => a.availability.localeCompare(b.availability) || a.name.localeCompare(b.name),
  signal: (a, b) => (b.state.rssi ?? -999) - (a.state.rssi ?? -999),
  battery: (a, b) => (a.state.battery ?? 999) - (b.state.battery ?? 999),
  seen: (a, b) => (b.seen ?? 0) - (a.seen ?? 0),
};

export class DevicesView {
  constructor(connection) { this.connection = connection; }

  mount(root) {
    this.search = h('input', { type: 'search', placeholder: 'Filter by name, id, model…', value: textChoice.get(), 'aria-label': 'Filter', oninput: () => { textChoice.set(this.search.value); this.update(); } });
    this.family = h('select', { 'aria-label': 'Family', onchange: () => { familyChoice.set(this.family.value); this.update(); } });
    this.sort = h('select', { 'aria-label': 'Sort by', onchange: () => { sortChoice.set(this.sort.value); this.update(); } },
      ...Object.keys(sorts).map((key) => h('option', { value: key }, `Sort: ${key}`)));
    this.sort.value = sortChoice.get();
    this.count = h('p', { class: 'muted', id: 'device-count' });
    this.list = h('div', { class: 'list', id: 'devices' });
    root.append(h('h1', {}, 'Devices'), h('div', { class: 'tools' }, this.search, this.family, this.sort), this.count, this.list);
    this.update();
  }

  rows() {
    const connection = this.connection;
    return connection.devices.map((device) => {
      const state = connection.state(device);
      const seen = state.last_seen ? Date.parse(state.last_seen) : connection.lastUpdate(device);
      return { device, state, seen, name: displayName(device), availability: connection.availability(device) };
    });
  }

  update() {
    const all = this.rows();
    const families = [...new Set(all.map((row) => row.device.integration))].sort();
    const chosen = familyChoice.get();
    this.family.replaceChildren(h('option', { value: '' }, 'All families'), ...families.map((name) => h('option', { value: name }, name.toUpperCase())));
    this.family.value = families.includes(chosen) ? chosen : '';
    const text = this.search.value.trim().toLowerCase();
    const rows = all
      .filter((row) => !this.family.value || row.device.integration === this.family.value)
      .filter((row) => !text || [row.name, row.device.id, row.device.alias, row.device.model, row.device.manufacturer, row.device.label]
        .some((field) => (field || '').toLowerCase().includes(text)))
      .sort(sorts[this.sort.value] || sorts.name);
    const ignored = this.connection.info?.integrations?.ble?.ignored_devices;
    this.count.textContent = `${rows.length} of ${all.length} devices` + (typeof ignored === 'number' ? ` · ${ignored} BLE addresses ignored` : '');
    this.list.replaceChildren(...rows.map((row) => this.card(row)));
  }

  card({ device, state, seen, name, availability }) {
    const status = state.status || device.device_status || availability;
    return h('a', { class: 'device', href: `#/device/${encodeURIComponent(device.id)}`, 'data-id': device.id },
      h('div', { class: 'name' }, name),
      h('div', { class: 'meta' }, h('span', {}, device.integration.toUpperCase()), h('span', {}, device.model), name !== device.id ? h('span', {}, device.id) : null),
      h('div', { class: 'figures' },
        h('span', { class: `pill ${availability}`, 'data-availability': availability }, status),
        signal(state.rssi),
        typeof state.battery === 'number' ? h('span', {}, `battery ${state.battery} %`) : null,
        h('span', { class: 'ago', 'data-time': seen || '' }, seen ? ago(seen) : 'not seen yet')));
  }

  tick() {
    for (const element of this.list.querySelectorAll('.ago[data-time]')) {
      const time = Number(element.dataset.time);
      if (time) element.textContent = ago(time);
    }
  }
}
