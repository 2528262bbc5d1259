import BridgeConfig
import BridgeCore

/// SIGHUP: apply what can change at run time, report what needs a restart.
extension BridgeService {
    func applyReload(_ newConfig: Configuration) {
        var applied: [String] = []
        var needsRestart: [String] = []
        if newConfig.mqtt != config.mqtt { needsRestart.append("mqtt") }
        if newConfig.homeassistant != config.homeassistant { needsRestart.append("homeassistant") }
        if newConfig.frontend != config.frontend { needsRestart.append("frontend") }
        // Each family decides which of its changes need a restart.
        needsRestart += newConfig.families.needingRestart(from: config.families).map(\.rawValue)
        if newConfig.logLevel != config.logLevel {
            logLevel.current = newConfig.logLevel
            applied.append("log_level")
        }
        let oldDevices = config.devices
        // Sections that need a restart keep their running values, so bridge/info shows what is in force.
        config.logLevel = newConfig.logLevel
        config.devices = newConfig.devices
        if oldDevices != newConfig.devices {
            applied.append("devices")
            for record in devices.values.sorted(by: { $0.id < $1.id }) {
                let settings = newConfig.devices[record.id] ?? DeviceSettings()
                guard settings != oldDevices[record.id] ?? DeviceSettings() else { continue }
                var updated = record
                updated.settings = settings
                devices[record.id] = updated
                if !settings.retain, record.settings.retain { clearRetained(topics.state(record.alias)) }
                if settings.alias != oldDevices[record.id]?.alias, savedAliases.removeValue(forKey: record.id) != nil {
                    options.saveAliases?(savedAliases)
                }
                let alias = settings.alias ?? record.id.rawValue
                if alias != record.alias, aliasIndex[alias] == nil || aliasIndex[alias] == record.id {
                    applyAlias(alias, for: updated, homeassistantRename: false)
                } else {
                    publishState(updated)
                    if case .disabled = settings.homeassistant { clearDiscovery(for: updated) } else { publishDiscovery(for: updated) }
                }
            }
        }
        // A family whose change needs no restart takes its new section now; the others keep theirs until one.
        for integration in newConfig.integrations where !needsRestart.contains(integration.rawValue) {
            guard let new = newConfig.families[integration], let old = config.families[integration], !new.sameSettings(as: old)
            else { continue }
            config.families.set(new)
            applied.append(integration.rawValue)
            if let driver = drivers[integration] as? any ReloadableDriver {
                _ = tasks.start { await driver.apply(newConfig) }
            }
        }
        restartRequired = Array(Set(restartRequired + needsRestart)).sorted()
        logger.info("Config reloaded", metadata: ["applied": "\(applied)", "restart_required": "\(needsRestart)"])
        publishEvent(
            "config_reloaded",
            ["applied": .array(applied.map(JSONValue.string)), "restart_required": .array(needsRestart.map(JSONValue.string))])
        publishInfo()
        scheduleInventory()
    }
}
