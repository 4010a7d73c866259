import Foundation

/// Natural file-name order, as file managers show it: "img2" before "img10".
enum NaturalOrder {
    static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        switch a.compare(b, options: [.numeric, .caseInsensitive]) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        // "IMG1" and "img1", or "a01" and "a1": any fixed order, so a rescan never reshuffles.
        case .orderedSame: return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
        }
    }
}
