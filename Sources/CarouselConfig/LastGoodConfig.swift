import CarouselCore
import Glibc

/// The last config that loaded cleanly, kept on disk (`$STATE_DIRECTORY/last-good-config`), so
/// that a config cut half-written by a power failure (an operator's copy in place, an editor's
/// save) cannot keep the box dark at the next boot: the daemon starts on this copy, says so,
/// and takes the directory again once it is valid.
///
/// One file holds carouseld.conf and the playlists it names by relative path, written whole and
/// synced (`WholeFile`, `.durable`: it is what the box shows after a cut). Its last line is the
/// FNV-1a of everything before it; a torn or foreign file is refused, never loaded.
///
///     carouseld last good config 1
///     carouseld.conf 123        (name, byte count; then the bytes and a newline)
///     ...
///     fnv 0123456789abcdef
package enum LastGoodConfig {
    static let magic = "carouseld last good config 1"

    package struct Problem: Error, CustomStringConvertible, Equatable {
        package let description: String
        /// Not a failure: the files changed after the load; the reload that follows saves.
        package static let changedSinceLoad = Problem(description: "the config changed after it was loaded")
    }

    /// The files `loaded` was read from, relative to its directory: carouseld.conf, playlist.m3u
    /// when it was used, and the table playlists named by a relative path (an absolute one is
    /// read where it is).
    package static func files(of loaded: LoadedConfig) -> [String] {
        var names = [ConfigLoader.configFileName]
        if loaded.playlistFile != nil { names.append(ConfigLoader.playlistFileName) }
        let tables = loaded.shell.outputs.compactMap(\.playlist) + loaded.shell.schedule.dayparts.map(\.file)
        for name in tables where !name.isEmpty && !name.hasPrefix("/") && !names.contains(name) { names.append(name) }
        return names
    }

    /// The copy of `loaded`'s files as they are on disk now; nil when carouseld.conf has changed
    /// since it was loaded (the copy would not be what loaded: the next reload saves again).
    package static func pack(_ loaded: LoadedConfig) -> [UInt8]? {
        var out = Array("\(magic)\n".utf8)
        for name in files(of: loaded) {
            guard let bytes = try? FileReading.read(loaded.directory + "/" + name) else { return nil }
            if name == ConfigLoader.configFileName, bytes.withUnsafeBytes({ FNV.hash($0) }) != loaded.configDigest { return nil }
            out += Array("\(name) \(bytes.count)\n".utf8) + bytes + [UInt8(ascii: "\n")]
        }
        return out + Array("fnv \(hex(out.withUnsafeBytes { FNV.hash($0) }))\n".utf8)
    }

    /// The files in a copy, checked whole; a problem naming what is wrong otherwise.
    package static func unpack(_ bytes: [UInt8]) throws(Problem) -> [(name: String, bytes: [UInt8])] {
        guard let lastLine = bytes.dropLast().lastIndex(of: UInt8(ascii: "\n")), bytes.last == UInt8(ascii: "\n") else {
            throw Problem(description: "cut short (no checksum line)")
        }
        let body = Array(bytes[...lastLine])
        let trailer = String(decoding: bytes[(lastLine + 1)...].dropLast(), as: UTF8.self)
        guard trailer == "fnv \(hex(body.withUnsafeBytes { FNV.hash($0) }))" else {
            throw Problem(description: "checksum mismatch (torn or changed)")
        }
        var at = 0
        func line() -> String? {
            guard let end = body[at...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            defer { at = end + 1 }
            return String(decoding: body[at..<end], as: UTF8.self)
        }
        guard line() == magic else { throw Problem(description: "not a last good config") }
        var files: [(name: String, bytes: [UInt8])] = []
        while at < body.count {
            guard let header = line(), let space = header.lastIndex(of: " "), let count = Int(header[header.index(after: space)...]),
                  count >= 0, at + count < body.count else { throw Problem(description: "malformed entry") }
            let name = String(header[..<space])
            // Names stay inside the directory they are restored into.
            guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
                throw Problem(description: "refused name \(name)")
            }
            files.append((name, Array(body[at..<(at + count)])))
            at += count + 1
        }
        guard files.contains(where: { $0.name == ConfigLoader.configFileName }) else { throw Problem(description: "no carouseld.conf") }
        return files
    }

    /// Saves `loaded`'s copy at `path`, synced (nothing written when the copy there is the same).
    package static func save(_ loaded: LoadedConfig, to path: String) -> Result<Void, Problem> {
        guard let bytes = pack(loaded) else { return .failure(.changedSinceLoad) }
        if let existing = try? FileReading.read(path, limit: 1 << 24), existing == bytes { return .success(()) }
        return WholeFile.write(bytes, to: path, mode: 0o600, durability: .durable).mapError { Problem(description: "\($0)") }
    }

    /// Writes the copy at `path` into `directory` (made if missing), ready for
    /// `ConfigLoader.load(directory:filesFrom:)`.
    package static func restore(from path: String, into directory: String) throws(Problem) {
        let bytes: [UInt8]
        do { bytes = try FileReading.read(path, limit: 1 << 24) } catch { throw Problem(description: FileReading.message(error)) }
        for file in try unpack(bytes) {
            let target = directory + "/" + file.name
            var parent = ""
            for part in target.split(separator: "/").dropLast() { parent += "/" + part; mkdir(parent, 0o700) }
            if case .failure(let failure) = WholeFile.write(file.bytes, to: target) {
                throw Problem(description: "\(target): \(failure)")
            }
        }
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
