@testable import CarouselCore
import Foundation
@testable import CarouselPixels

/// The realistic photo set of issue 14, made by scripts/make-photo-set.py (PIL, jpegtran) with
/// PIL's own reference cards, and cached under ~/.cache/carouseld-photoset/<hash of the script
/// and its arguments>: a changed script makes a new set, an unchanged one costs nothing.
enum PhotoSet {
    static let cardWidth = 640, cardHeight = 400
    static let background: UInt32 = 0x101010

    struct Entry {
        let name: String
        let path: String
        let directory: String
        /// PIL's card for `fit`: rows of R,G,B bytes, cardWidth × cardHeight.
        func reference(_ fit: String) throws -> [UInt8] {
            try PhotoSet.readPPM(directory + "/" + name + "." + fit + ".ppm")
        }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/make-photo-set.py").path
    }

    static var arguments: [String] { ["--card", "\(cardWidth)x\(cardHeight)", "--background", String(format: "%06x", background)] }

    /// Every file of the set, generating it first when the cache has none for this script.
    static func entries() throws -> [Entry] {
        let directory = try ensure()
        let manifest = try String(contentsOfFile: directory + "/manifest", encoding: .utf8)
        return manifest.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 2 else { return nil }
            return Entry(name: String(parts[0]), path: directory + "/" + parts[1], directory: directory)
        }
    }

    private static func ensure() throws -> String {
        guard let source = FileManager.default.contents(atPath: script) else { throw Failure(description: "no \(script)") }
        let directory = cacheRoot() + "/" + fnv1a(Array(source) + Array(arguments.joined(separator: " ").utf8))
        if FileManager.default.fileExists(atPath: directory + "/manifest") { return directory }
        try FileManager.default.createDirectory(atPath: cacheRoot(), withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, directory] + arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "make-photo-set.py failed (python3-pil and libjpeg-turbo-progs come from scripts/setup): \(message)")
        }
        return directory
    }

    private static func cacheRoot() -> String {
        let environment = ProcessInfo.processInfo.environment
        if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty { return cache + "/carouseld-photoset" }
        if let home = environment["HOME"], FileManager.default.isWritableFile(atPath: home) { return home + "/.cache/carouseld-photoset" }
        return NSTemporaryDirectory() + "carouseld-photoset"
    }

    private static func fnv1a(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// A binary PPM (P6, maxval 255) as PIL writes it.
    static func readPPM(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure(description: "no \(path)") }
        let bytes = [UInt8](data)
        var fields: [String] = [], index = 0, current = ""
        while fields.count < 4, index < bytes.count {
            let c = bytes[index]; index += 1
            if c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D {
                if !current.isEmpty { fields.append(current); current = "" }
            } else { current.append(Character(UnicodeScalar(c))) }
        }
        guard fields == ["P6", "\(cardWidth)", "\(cardHeight)", "255"], bytes.count - index == cardWidth * cardHeight * 3 else {
            throw Failure(description: "\(path): not a \(cardWidth)x\(cardHeight) P6 PPM (\(fields))")
        }
        return Array(bytes[index...])
    }

    /// Mean absolute difference per channel level between a card and a reference, and the
    /// worst 8x8 block's mean (where a local error such as a misplaced shape shows).
    static func difference(_ card: Card, _ reference: [UInt8]) -> (mean: Double, worstBlock: Double) {
        var total = 0
        var blocks = [Int](repeating: 0, count: ((cardWidth + 7) / 8) * ((cardHeight + 7) / 8))
        for y in 0..<cardHeight {
            for x in 0..<cardWidth {
                let pixel = card.pixel(x: x, y: y), offset = (y * cardWidth + x) * 3
                let d = abs(Int((pixel >> 16) & 0xFF) - Int(reference[offset]))
                    + abs(Int((pixel >> 8) & 0xFF) - Int(reference[offset + 1]))
                    + abs(Int(pixel & 0xFF) - Int(reference[offset + 2]))
                total += d
                blocks[(y / 8) * ((cardWidth + 7) / 8) + x / 8] += d
            }
        }
        return (Double(total) / Double(cardWidth * cardHeight * 3), Double(blocks.max() ?? 0) / Double(8 * 8 * 3))
    }
}
