import CarouselCore
import Glibc

/// The image directory: which files are images, whether a path stays inside it, and the
/// natural-order listing used when there is no playlist.
package struct MediaDirectory {
    package static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "webp"]

    /// The path as configured (absolute), used to build item paths.
    package let path: String
    /// The same directory with symlinks resolved, for containment checks.
    package let realPath: String

    /// nil when the directory does not exist or is not a directory (`problem(path)` says which).
    package init?(path: String) {
        guard let real = Self.realPath(path), Self.isDirectory(real) else { return nil }
        self.path = path
        self.realPath = real
    }

    /// Why `path` cannot be used as a directory, for messages: "is a symlink loop (...)",
    /// "is a file, not a directory", "does not exist"; nil when it is a directory.
    package static func problem(_ path: String) -> String? {
        var st = stat()
        if stat(path, &st) != 0 {
            let err = errno
            switch err {
            case ELOOP: return "is a symlink loop (\(describe(errno: err)))"
            case ENOENT: return "does not exist"
            case ENOTDIR: return "does not exist (a parent is not a directory)"
            default: return "cannot be read (\(describe(errno: err)))"
            }
        }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return nil
        case S_IFREG: return "is a file, not a directory"
        default: return "is not a directory"
        }
    }

    package static func isSupportedImage(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), !name.hasPrefix(".") else { return false }
        return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    package enum Resolution: Equatable {
        /// The full path of an existing regular file inside the directory.
        case inside(String)
        /// The entry resolves (through `..`, an absolute path or a symlink) to this path outside.
        case outside(String)
        case missing
        case notAFile
    }

    /// Resolves a playlist entry relative to the directory (absolute entries are taken as they are).
    package func resolve(_ entry: String) -> Resolution {
        let full = entry.hasPrefix("/") ? entry : path + "/" + entry
        guard let real = Self.realPath(full) else { return .missing }
        guard real.hasPrefix(realPath.hasSuffix("/") ? realPath : realPath + "/") else { return .outside(real) }
        guard Self.isRegularFile(real) else { return .notAFile }
        // With `..` a lexical fold could disagree with symlinks on the way: use the real path then.
        return .inside(entry.split(separator: "/").contains("..") ? real : Self.normalized(full))
    }

    /// Supported images directly in the directory, in natural order; hidden files (editors' and
    /// rsync's temporary `.name.XXXXXX` files) are ignored. Symlinks leaving the directory are refused.
    package func scan() -> (paths: [String], refused: [ConfigProblem]) {
        guard let dir = opendir(path) else { return ([], []) }
        defer { closedir(dir) }
        var names: [String] = []
        var refused: [ConfigProblem] = []
        while let entry = readdir(dir) {
            let bytes = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: UInt8.self, capacity: Int(NAME_MAX) + 1) {
                    Array(UnsafeBufferPointer(start: $0, count: strlen(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))))
                }
            }
            guard let name = String(validating: bytes, as: UTF8.self) else {
                // A path in Swift text cannot hold these bytes, so the file could not be opened
                // by its name: say so, with the bytes escaped (`\xff`), if it looks like a picture.
                let shown = escapedFileName(bytes)
                if Self.isSupportedImage(shown) {
                    refused.append(ConfigProblem(file: path + "/" + shown, line: nil, key: "name",
                                                 message: "file name is not valid UTF-8; skipped (rename the file)",
                                                 kind: .init(file: path, message: "with names that are not valid UTF-8; skipped (rename them)")))
                }
                continue
            }
            guard Self.isSupportedImage(name) else { continue }
            switch resolve(name) {
            case .inside: names.append(name)
            case .outside(let target):
                refused.append(ConfigProblem(file: path + "/" + name, line: nil, key: name,
                                             message: "resolves to \(target), outside the media directory; refused"))
            case .missing, .notAFile: continue // a dangling link or a directory named like an image
            }
        }
        names.sort(by: NaturalOrder.areInIncreasingOrder)
        return (names.map { path + "/" + $0 }, refused)
    }

    // MARK: - Paths

    package static func realPath(_ path: String) -> String? {
        guard let p = Glibc.realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    package static func isDirectory(_ path: String) -> Bool { fileType(path) == S_IFDIR }
    package static func isRegularFile(_ path: String) -> Bool { fileType(path) == S_IFREG }

    private static func fileType(_ path: String) -> mode_t? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return st.st_mode & S_IFMT
    }

    /// Removes `.` and empty components and folds `..` lexically, so "./a//b.jpg" reads "a/b.jpg"
    /// in the status line. Only used for paths already proven to stay inside.
    package static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", !parts.isEmpty { parts.removeLast(); continue }
            parts.append(part)
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    /// `base`/`path` unless `path` is absolute, normalized.
    package static func absolute(_ path: String, relativeTo base: String) -> String {
        normalized(path.hasPrefix("/") ? path : base + "/" + path)
    }
}
