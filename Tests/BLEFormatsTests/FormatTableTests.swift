import BLEFormats
import Testing

@Suite("A value per passive format")
struct FormatTableTests {
    @Test("values are set, read, changed in place and removed per format, each format apart from the others")
    func perFormat() {
        var table: FormatTable<Int> = [.bthome: 1, .xiaomi: 2, .bthome: 3]
        #expect(table[.bthome] == 3 && table[.xiaomi] == 2 && table[.pvvx] == nil)
        table[.pvvx] = 4
        table[.xiaomi] = nil
        #expect(table[.pvvx] == 4 && table[.xiaomi] == nil && table[.bthome] == 3)
        // `update` starts from `initial` only for a format without a value, and returns what the change returns.
        let doubled = table.update(.bthome, initial: 100) { value -> Int in
            value *= 2
            return value
        }
        let started = table.update(.atc, initial: 10) { value -> Int in
            value += 1
            return value
        }
        #expect(doubled == 6 && started == 11 && table[.bthome] == 6 && table[.atc] == 11)
        table[.bthome] = nil
        table[.pvvx] = nil
        table[.atc] = nil
        table[.ruuvi] = nil
        #expect(table.isEmpty)
    }

    @Test("a packet filter kept in the table drops a repeated packet id, as one kept alone does")
    func keepsFilters() {
        var table = FormatTable<PacketFilter>()
        let accepted = [7, 7, 8, 8, 7].map { id in
            table.update(.bthome, initial: PacketFilter()) { $0.accept(UInt8(id), now: 1) }
        }
        #expect(accepted == [true, false, true, false, false])
    }
}
