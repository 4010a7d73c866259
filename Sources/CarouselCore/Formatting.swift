import Glibc

/// printf-style number formatting (`%.3f`, `%08.3f`, `%3d`) through libc's vsnprintf, since
/// `String(format:)` lives in full Foundation, which the daemon does not link (it brings ICU).
/// Only numeric arguments: `%s` and `%@` are not supported; interpolate strings instead.
package func formatted(_ format: String, _ arguments: CVarArg...) -> String {
    withVaList(arguments) { list in
        var buffer = [CChar](repeating: 0, count: 512)
        let n = Int(vsnprintf(&buffer, buffer.count, format, list))
        if n >= buffer.count {
            buffer = [CChar](repeating: 0, count: n + 1)
            _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

package extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line breaks.
    package func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

/// A NUL-terminated C string in a fixed-size char array (libpng's message, libdrm's names):
/// up to the first NUL, or the whole array when there is none.
package func string(fromCArray bytes: UnsafeRawBufferPointer) -> String {
    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
}
