import CarouselCore
/// Natural file-name order, as file managers show it: "img2" before "img10", case ignored.
/// Runs of digits compare by value, everything else by lower-cased characters.
package enum NaturalOrder {
    package static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        let x = chunks(a), y = chunks(b)
        for (p, q) in zip(x, y) where p != q {
            switch (p, q) {
            case (.number(let m), .number(let n)): if m != n { return isSmaller(m, n) }
            case (.text(let s), .text(let t)): if s != t { return s < t }
            case (.number, .text): return true   // digits sort before letters, as in ASCII
            case (.text, .number): return false
            }
        }
        if x.count != y.count { return x.count < y.count }
        // "IMG1" and "img1", or "a01" and "a1": any fixed order, so a rescan never reshuffles.
        return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
    }

    private enum Chunk: Equatable {
        case number(Substring)  // digits without leading zeros
        case text(String)       // lower-cased
    }

    private static func chunks(_ name: String) -> [Chunk] {
        var result: [Chunk] = []
        var rest = Substring(name)
        while let first = rest.first {
            let isDigit = first.isASCII && first.isNumber
            let run = rest.prefix(while: { ($0.isASCII && $0.isNumber) == isDigit })
            rest = rest.dropFirst(run.count)
            if isDigit {
                let value = run.drop(while: { $0 == "0" })
                result.append(.number(value))
            } else {
                result.append(.text(run.lowercased()))
            }
        }
        return result
    }

    /// Compares digit strings without leading zeros by value, at any length.
    private static func isSmaller(_ m: Substring, _ n: Substring) -> Bool {
        m.count != n.count ? m.count < n.count : m < n
    }
}
