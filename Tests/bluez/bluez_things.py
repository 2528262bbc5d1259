'''BlueZ stand-in for things2mqtt's tests and demo: python-dbusmock's bluez5 template with the
behaviour the bridge relies on fixed and extended (real discovery errors, correct advert types,
Connect that stores Connected and then ServicesResolved, failure injection, adverts, GATT objects,
and Nova flashes that acknowledge their frames).

Run with Debian's interpreter: /usr/bin/python3 -m dbusmock --template Tests/bluez/bluez_things.py
'''

import random
import re
import time

import dbus

from dbusmock import mockobject
from dbusmock.templates import bluez5 as _base
from dbusmock.templates.bluez5 import *  # noqa: F401,F403  (the base template's methods and constants)

BUS_NAME = 'org.bluez'
MAIN_OBJ = '/'
SYSTEM_BUS = True
IS_OBJECT_MANAGER = True

GATT_SERVICE_IFACE = 'org.bluez.GattService1'
GATT_CHARACTERISTIC_IFACE = 'org.bluez.GattCharacteristic1'
NOVA_SERVICE = '0000fff0-0000-1000-8000-00805f9b34fb'
NOVA_REQUEST = '0000fff3-0000-1000-8000-00805f9b34fb'
NOVA_RESPONSE = '0000fff4-0000-1000-8000-00805f9b34fb'
NOVA_FRAME = re.compile(rb'^\(([0-9A-Fa-f]{2}):')


def load(mock, parameters):
    _base.load(mock, parameters)


def _changed(obj, iface, props):
    '''Stores properties and announces them in one PropertiesChanged, as BlueZ does.'''
    obj.props[iface].update(props)
    obj.EmitSignal(dbus.PROPERTIES_IFACE, 'PropertiesChanged', 'sa{sv}as', [iface, props, []])


def _error(name, message):
    return dbus.exceptions.DBusException(message, name='org.bluez.Error.' + name)


def _object(path):
    if path not in mockobject.objects:
        raise dbus.exceptions.DBusException(f'no object {path}', name='org.bluez.Mock.NoSuchObject')
    return mockobject.objects[path]


def _added(path, interfaces):
    mockobject.objects['/'].EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesAdded', 'oa{sa{sv}}',
                                       [dbus.ObjectPath(path), interfaces])


@dbus.service.method(ADAPTER_IFACE, in_signature='a{sv}', out_signature='')
def SetDiscoveryFilter(adapter, discovery_filter):
    # Kept beside the properties: BlueZ does not expose the filter as one.
    adapter.discovery_filter = discovery_filter


@dbus.service.method(ADAPTER_IFACE, in_signature='', out_signature='')
def StartDiscovery(adapter):
    if not adapter.props[ADAPTER_IFACE]['Powered']:
        raise _error('NotReady', 'Resource Not Ready')
    if adapter.props[ADAPTER_IFACE]['Discovering']:
        raise _error('InProgress', 'Operation already in progress')
    _changed(adapter, ADAPTER_IFACE, {'Discovering': dbus.Boolean(True, variant_level=1)})


@dbus.service.method(ADAPTER_IFACE, in_signature='', out_signature='')
def StopDiscovery(adapter):
    if not adapter.props[ADAPTER_IFACE]['Discovering']:
        raise _error('Failed', 'No discovery started')
    _changed(adapter, ADAPTER_IFACE, {'Discovering': dbus.Boolean(False, variant_level=1)})


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='ss', out_signature='s')
def AddAdapter(self, device_name, system_name):
    path = _base.AddAdapter(self, device_name, system_name)
    adapter = mockobject.objects[path]
    adapter.props[ADAPTER_IFACE]['Roles'] = dbus.Array(['central', 'peripheral'], signature='s', variant_level=1)
    adapter.discovery_filter = None
    adapter.AddMethods(ADAPTER_IFACE, [
        ('StartDiscovery', '', '', StartDiscovery),
        ('StopDiscovery', '', '', StopDiscovery),
        ('SetDiscoveryFilter', 'a{sv}', '', SetDiscoveryFilter),
    ])
    return path


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sb', out_signature='')
def SetPowered(self, adapter_path, powered):
    '''Powers an adapter on or off; off also ends discovery and every connection, as the kernel does.'''
    adapter = _object(adapter_path)
    changes = {'Powered': dbus.Boolean(powered, variant_level=1)}
    if not powered:
        changes['Discovering'] = dbus.Boolean(False, variant_level=1)
        for path, obj in list(mockobject.objects.items()):
            if path.startswith(adapter_path + '/dev_') and DEVICE_IFACE in obj.props and obj.props[DEVICE_IFACE]['Connected']:
                _set_connected(obj, False)
    _changed(adapter, ADAPTER_IFACE, changes)


def _set_connected(device, connected):
    device.connected = connected
    _changed(device, DEVICE_IFACE, {'Connected': dbus.Boolean(connected, variant_level=1)})
    if connected and getattr(device, 'nova', False):
        _add_nova_gatt(device)
    # BlueZ reports ServicesResolved in its own signal, after Connected.
    _changed(device, DEVICE_IFACE, {'ServicesResolved': dbus.Boolean(connected, variant_level=1)})
    if not connected:
        # Notifications end with the connection.
        for path, obj in list(mockobject.objects.items()):
            if path.startswith(device.path + '/') and GATT_CHARACTERISTIC_IFACE in obj.props \
                    and obj.props[GATT_CHARACTERISTIC_IFACE]['Notifying']:
                _changed(obj, GATT_CHARACTERISTIC_IFACE, {'Notifying': dbus.Boolean(False, variant_level=1)})


@dbus.service.method(DEVICE_IFACE, in_signature='', out_signature='')
def Connect(device):
    device.connect_attempts.append(time.monotonic())
    if device.fail_connects:
        raise _error('Failed', device.fail_connects.pop(0))
    if device.connected:
        return
    _set_connected(device, True)


@dbus.service.method(DEVICE_IFACE, in_signature='', out_signature='')
def Disconnect(device):
    if device.connected:
        _set_connected(device, False)


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sss', out_signature='s')
def AddDevice(self, adapter_device_name, device_address, alias):
    path = _base.AddDevice(self, adapter_device_name, device_address, alias)
    device = mockobject.objects[path]
    # The base template gives these the wrong D-Bus types; BlueZ uses a{qv}, a{sv}, ay and a{yv}.
    device.props[DEVICE_IFACE].update({
        'ManufacturerData': dbus.Dictionary({}, signature='qv', variant_level=1),
        'ServiceData': dbus.Dictionary({}, signature='sv', variant_level=1),
        'AdvertisingFlags': dbus.ByteArray(b'', variant_level=1),
        'AdvertisingData': dbus.Dictionary({}, signature='yv', variant_level=1),
    })
    device.fail_connects = []
    device.connect_attempts = []
    device.nova = False
    device.nova_acks = True
    device.AddMethods(DEVICE_IFACE, [('Connect', '', '', Connect), ('Disconnect', '', '', Disconnect)])
    return path


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='ss', out_signature='s')
def AddNova(self, adapter_device_name, device_address):
    '''A Nova flash: name "Nova", service FFF0; once connected it has FFF3 (requests) and FFF4 (acks).'''
    path = AddDevice(self, adapter_device_name, device_address, 'Nova')
    device = mockobject.objects[path]
    device.nova = True
    _changed(device, DEVICE_IFACE, {'UUIDs': dbus.Array([NOVA_SERVICE], signature='s', variant_level=1)})
    return path


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sb', out_signature='')
def SetNovaAcks(self, device_path, enabled):
    '''Whether the Nova at `device_path` acknowledges frames (off: the bridge's ack timeout runs out).'''
    _object(device_path).nova_acks = enabled


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sus', out_signature='')
def FailNextConnects(self, device_path, count, message):
    '''The next `count` Connect calls fail with org.bluez.Error.Failed and `message`.'''
    _object(device_path).fail_connects.extend([message] * count)


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sna{qv}a{sv}', out_signature='')
def Advertise(self, device_path, rssi, manufacturer_data, service_data):
    '''One advert: RSSI and, when given, manufacturer and service data, in one PropertiesChanged.'''
    changes = {'RSSI': dbus.Int16(rssi, variant_level=1)}
    if manufacturer_data:
        changes['ManufacturerData'] = dbus.Dictionary(manufacturer_data, signature='qv', variant_level=1)
    if service_data:
        changes['ServiceData'] = dbus.Dictionary(service_data, signature='sv', variant_level=1)
    _changed(_object(device_path), DEVICE_IFACE, changes)


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sui', out_signature='')
def AdvertiseBurst(self, device_path, count, rssi):
    '''`count` RSSI adverts in a row (RSSI cycling over rssi-9..rssi), the last one exactly `rssi`.'''
    device = _object(device_path)
    for index in range(count):
        value = rssi - ((count - 1 - index) % 10)
        _changed(device, DEVICE_IFACE, {'RSSI': dbus.Int16(value, variant_level=1)})


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sas', out_signature='')
def SetServices(self, device_path, uuids):
    '''The service UUIDs the device advertises.'''
    _changed(_object(device_path), DEVICE_IFACE, {'UUIDs': dbus.Array(uuids, signature='s', variant_level=1)})


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='ssq', out_signature='s')
def AddGattService(self, device_path, uuid, handle):
    path = f'{device_path}/service{handle:04x}'
    props = {
        'UUID': dbus.String(uuid, variant_level=1), 'Primary': dbus.Boolean(True, variant_level=1),
        'Device': dbus.ObjectPath(device_path, variant_level=1),
    }
    self.AddObject(path, GATT_SERVICE_IFACE, props, [])
    _added(path, {GATT_SERVICE_IFACE: props})
    return path


@dbus.service.method(GATT_CHARACTERISTIC_IFACE, in_signature='a{sv}', out_signature='ay')
def ReadValue(characteristic, options):
    return dbus.ByteArray(bytes(characteristic.props[GATT_CHARACTERISTIC_IFACE]['Value']))


@dbus.service.method(GATT_CHARACTERISTIC_IFACE, in_signature='aya{sv}', out_signature='')
def WriteValue(characteristic, value, options):
    kind = str(options.get('type', 'request'))
    characteristic.writes.append((bytes(value), kind))
    nova = getattr(characteristic, 'nova_device', None)
    response = mockobject.objects[characteristic.nova_response] if nova is not None else None
    # Like a real flash seen through BlueZ, acks reach the client only while it has notifications on.
    if nova is not None and nova.nova_acks and response.props[GATT_CHARACTERISTIC_IFACE]['Notifying']:
        frame = NOVA_FRAME.match(bytes(value))
        if frame:
            ack = b'(' + frame.group(1).upper() + b':A)'
            _changed(response, GATT_CHARACTERISTIC_IFACE, {'Value': dbus.ByteArray(ack, variant_level=1)})


@dbus.service.method(GATT_CHARACTERISTIC_IFACE, in_signature='', out_signature='')
def StartNotify(characteristic):
    _changed(characteristic, GATT_CHARACTERISTIC_IFACE, {'Notifying': dbus.Boolean(True, variant_level=1)})


@dbus.service.method(GATT_CHARACTERISTIC_IFACE, in_signature='', out_signature='')
def StopNotify(characteristic):
    _changed(characteristic, GATT_CHARACTERISTIC_IFACE, {'Notifying': dbus.Boolean(False, variant_level=1)})


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='ssqasay', out_signature='s')
def AddGattCharacteristic(self, service_path, uuid, handle, flags, value):
    path = f'{service_path}/char{handle:04x}'
    props = {
        'UUID': dbus.String(uuid, variant_level=1), 'Service': dbus.ObjectPath(service_path, variant_level=1),
        'Flags': dbus.Array(flags, signature='s', variant_level=1),
        'Value': dbus.ByteArray(bytes(value), variant_level=1), 'Notifying': dbus.Boolean(False, variant_level=1),
    }
    self.AddObject(path, GATT_CHARACTERISTIC_IFACE, props, [
        ('ReadValue', 'a{sv}', 'ay', ReadValue), ('WriteValue', 'aya{sv}', '', WriteValue),
        ('StartNotify', '', '', StartNotify), ('StopNotify', '', '', StopNotify),
    ])
    mockobject.objects[path].writes = []
    _added(path, {GATT_CHARACTERISTIC_IFACE: props})
    return path


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='say', out_signature='')
def Notify(self, characteristic_path, value):
    '''A notification: the characteristic's Value changes.'''
    _changed(_object(characteristic_path), GATT_CHARACTERISTIC_IFACE, {'Value': dbus.ByteArray(bytes(value), variant_level=1)})


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='s', out_signature='a(ays)')
def GetWrites(self, characteristic_path):
    '''What was written to a characteristic, with the write type BlueZ was given.'''
    return dbus.Array([dbus.Struct((dbus.ByteArray(v), k)) for v, k in _object(characteristic_path).writes],
                      signature='(ays)')


def _add_nova_gatt(device):
    if getattr(device, 'nova_gatt', False):
        return
    device.nova_gatt = True
    main = mockobject.objects['/']
    service = AddGattService(main, device.path, NOVA_SERVICE, 0x0010)
    request = AddGattCharacteristic(main, service, NOVA_REQUEST, 0x0011, ['write'], b'')
    response = AddGattCharacteristic(main, service, NOVA_RESPONSE, 0x0013, ['notify'], b'')
    mockobject.objects[request].nova_device = device
    mockobject.objects[request].nova_response = response


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='s', out_signature='ad')
def GetConnectAttempts(self, device_path):
    '''When each Connect call on the device arrived, in seconds of the stand-in's monotonic clock.'''
    return dbus.Array(_object(device_path).connect_attempts, signature='d')


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='suns', out_signature='as')
def AddRandomDevices(self, adapter_device_name, count, rssi, alias):
    '''`count` devices with random resolvable private addresses (as phones rotating their address),
    each found by BlueZ and then heard once at `rssi`; returns their paths.'''
    paths = []
    for _ in range(count):
        octets = [random.randrange(256) for _ in range(6)]
        octets[0] = (octets[0] & 0x3F) | 0x40  # resolvable private: the two top bits are 01
        address = ':'.join(f'{octet:02X}' for octet in octets)
        path = AddDevice(self, adapter_device_name, address, alias)
        device = mockobject.objects[path]
        _changed(device, DEVICE_IFACE, {
            'AddressType': dbus.String('random', variant_level=1), 'RSSI': dbus.Int16(rssi, variant_level=1)})
        paths.append(path)
    return dbus.Array(paths, signature='s')
