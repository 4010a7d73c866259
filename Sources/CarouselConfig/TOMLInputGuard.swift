import CarouselCore
/// Refuses, before toml++ sees them, the inputs on which toml++ 3.3/3.4 (Debian 12 ships 3.3)
/// does not return a parse error but asserts in debug builds and has undefined behaviour in
/// release builds (`TOML_ASSERT_ASSUME`). Found by ConfigFuzzTests; fixed upstream in
/// marzer/tomlplusplus#301, after the version Debian 12 ships. Every input refused here is invalid
/// TOML anyway, so no valid file is turned away (a `[` line inside a multi-line string aside,
/// which no carouseld key needs).
package enum TOMLInputGuard {
    /// The first reason the bytes cannot be handed to toml++, with its 1-based line.
    package static func refusal(_ bytes: [UInt8]) -> (line: Int, message: String)? {
        // TOML allows no control character but tab and line ends; some crash toml++ ("[\u{1E}"),
        // and a NUL would silently cut the C string toml++ reads.
        if let bad = bytes.firstIndex(where: { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0x7F }) {
            return (line(of: bad, in: bytes),
                    "control character 0x\(String(bytes[bad], radix: 16, uppercase: true)) in file; TOML allows only tab and line ends")
        }
        // A table header whose name does not start with a key character: "[#", "[[[", "[é", "[\n".
        var lineNumber = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var rest = line.drop(while: isBlank)
            guard rest.first == UInt8(ascii: "[") else { continue }
            rest = rest.dropFirst()
            if rest.first == UInt8(ascii: "[") { rest = rest.dropFirst() }
            rest = rest.drop(while: isBlank)
            guard let first = rest.first, startsTableName(first) else {
                return (lineNumber, "table header must start with a key name")
            }
        }
        return nil
    }

    private static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }

    /// A bare key character, a quote, or the `]` of an empty name (which toml++ reports itself).
    private static func startsTableName(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
             UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "]"):
            return true
        default:
            return false
        }
    }

    private static func line(of index: Int, in bytes: [UInt8]) -> Int {
        1 + bytes[..<index].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }
}
