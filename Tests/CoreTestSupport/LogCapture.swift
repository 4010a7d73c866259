import CarouselCore

/// Captures log lines for the duration of `body`.
package func capturingLog(_ body: () throws -> Void) rethrows -> [(Log.Level, String)] {
    final class Lines: @unchecked Sendable { var lines: [(Log.Level, String)] = [] }
    let captured = Lines()
    Log.sink = { level, line in captured.lines.append((level, line)) }
    defer { Log.sink = nil }
    try body()
    return captured.lines
}
