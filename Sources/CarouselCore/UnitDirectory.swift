import Glibc

/// The directories a systemd unit is given (RuntimeDirectory=, CacheDirectory=, StateDirectory=)
/// as it passes them ($RUNTIME_DIRECTORY, $CACHE_DIRECTORY, $STATE_DIRECTORY): several entries
/// are joined with ':', and the unit's own is the first. Nil when the variable is unset or empty.
package enum UnitDirectory {
    package static func first(_ variable: String,
                               environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> String? {
        environment(variable).flatMap { $0.split(separator: ":").first.map(String.init) }
    }
}
