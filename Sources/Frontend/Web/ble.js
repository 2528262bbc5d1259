// BLE: the adapter's status, the permit window with its countdown, the devices in range (admitted, and the
// strongest of those not admitted, from `ble/nearby`) and the policies.
import { ago, attempt, displayName, h, signal } from './ui.js';

export class BLEView {
  constructor(connection) { this.connection = connection; }

  mount(root) {
    this.adapter = h('div', { class: 'grid2', id: 'ble-adapter' });
    this.left = h('span', { id: 'permit-countdown', class: 'muted' });
    this.devices = h('div', { class: 'list', id: 'ble-devices' });
    this.nearby = h('div', { class: 'list', id: 'ble-nearby' }, h('p', { class: 'muted' }, 'Listening…'));
    this.policies = h('pre', { id: 'ble-policies' });
    const seconds = h('select', { 'aria-label': 'Window length' }, ...[60, 120, 300, 600].map((value) => h('option', { value }, `${value} s`)));
    seconds.value = '120';
    root.append(
      h('h1', {}, 'BLE'),
      h('div', { class: 'card' }, h('h2', {}, 'Adapter'), this.adapter),
      h('div', { class: 'card' }, h('h2', {}, 'Permit window'),
        h('p', { class: 'muted' }, 'While it is open, any BLE device in range appears as a device.'),
        h('div', { class: 'tools' },
          seconds,
          h('button', { type: 'button', class: 'primary', id: 'permit-open', onclick: () => this.permit(Number(seconds.value)) }, 'Open'),
          h('button', { type: 'button', id: 'permit-close', onclick: () => this.permit(0) }, 'Close'),
          this.left)),
      h('div', { class: 'card' }, h('h2', {}, 'Devices'), this.devices),
      h('div', { class: 'card' }, h('h2', {}, 'Nearby, not admitted'),
        h('p', { class: 'muted' }, 'Heard in the last two minutes; the permit window or a rule lets them in.'), this.nearby),
      h('div', { class: 'card' }, h('h2', {}, 'Connect policies'), this.policies));
    this.update();
    this.ticks = 0;
    this.listNearby();
  }

  /// Asks the driver what it hears and does not publish; again every few seconds while the page is open.
  async listNearby() {
    const status = this.connection.info?.integrations?.ble?.status;
    if (!status || status === 'disabled' || this.asking) return;
    this.asking = true;
    try {
      const data = await this.connection.request('ble/nearby');
      const entries = data?.devices || [];
      this.nearby.replaceChildren(...entries.map((entry) => h('div', { class: 'device', 'data-address': entry.address },
        h('div', { class: 'name' }, entry.name || entry.address),
        h('div', { class: 'figures' }, entry.name ? h('span', {}, entry.address) : null, signal(entry.rssi),
          h('span', { 'data-seen': Date.parse(entry.last_seen) }, ago(Date.parse(entry.last_seen)))))));
      if (!entries.length) this.nearby.append(h('p', { class: 'muted' }, 'Nothing else heard.'));
      this.listed = true;
    } catch (error) {
      this.nearby.replaceChildren(h('p', { class: 'error' }, error.message));
    } finally {
      this.asking = false;
    }
  }

  permit(time) {
    attempt(() => this.connection.request('ble/permit', { time }), time ? `Permit window open for ${time} s` : 'Permit window closed')
      .then((data) => { if (data) { this.connection.permitUntil = time ? Date.parse(data.until) : 0; this.countdown(); } });
  }

  update() {
    const ble = this.connection.info?.integrations?.ble;
    const entries = ble ? Object.entries(ble) : [['status', 'not reported']];
    this.adapter.replaceChildren(...entries.flatMap(([key, value]) => [h('span', { class: 'muted' }, key.replaceAll('_', ' ')), h('span', {}, value === null ? '—' : String(value))]));
    const devices = this.connection.devices.filter((device) => device.integration === 'ble')
      .map((device) => ({ device, state: this.connection.state(device) }))
      .sort((a, b) => (b.state.rssi ?? -999) - (a.state.rssi ?? -999));
    this.devices.replaceChildren(...devices.map(({ device, state }) => h('a', { class: 'device', href: `#/device/${encodeURIComponent(device.id)}`, 'data-id': device.id },
      h('div', { class: 'name' }, displayName(device)),
      // The id tells apart devices that share a name (two flashes both called "Nova").
      h('div', { class: 'figures' }, h('span', {}, device.model), displayName(device) !== device.id ? h('span', { class: 'muted' }, device.id) : null, signal(state.rssi), h('span', {}, state.status || device.device_status || ''),
        state.last_seen ? h('span', {}, ago(Date.parse(state.last_seen))) : null))));
    if (!devices.length) this.devices.append(h('p', { class: 'muted' }, 'No BLE device admitted yet.'));
    const config = this.connection.info?.config?.ble;
    this.policies.textContent = config ? JSON.stringify(config.connect ?? config, null, 2) : '—';
    this.countdown();
  }

  /// Every second: the countdown, the nearby list's ages, and the list itself every five (at once until it came).
  tick() {
    if (++this.ticks % 5 === 0 || !this.listed) this.listNearby();
    for (const seen of this.nearby.querySelectorAll('[data-seen]')) seen.textContent = ago(Number(seen.dataset.seen));
    this.countdown();
  }

  countdown() {
    const left = Math.round(((this.connection.permitUntil || 0) - Date.now()) / 1000);
    this.left.textContent = left > 0 ? `open, ${left} s left` : 'closed';
  }
}
