import CarouselConfig
import CarouselCore
import CarouselPixels
import Glibc

/// The daemon's card cache (and kept frames, in its `frames/`): `--cache-dir`, else `cache_dir`
/// in carouseld.conf (a writable data partition, so warm starts survive reboots on an overlay
/// root), else systemd's `$CACHE_DIRECTORY` (`CacheDirectory=`), else none. When that directory
/// cannot be written (a read-only root), the cache goes under the runtime directory in /run,
/// said once, at most a quarter of /run's free space: the box still starts warm after the
/// first pictures, until the next reboot. `disk_cache_mb = 0` keeps it off until a reload
/// sets a size.
struct DaemonCardCache {
    let cache: CardCache?
    /// True while the cache is under /run because its directory could not be written; nil
    /// without a cache directory.
    let fallback: Bool?

    static func open(commandLine: String?, shell: ShellSettings,
                     environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> DaemonCardCache {
        func first(_ name: String) -> String? { UnitDirectory.first(name, environment: environment) }
        guard let directory = commandLine ?? shell.media.cacheDirectory ?? first("CACHE_DIRECTORY") else {
            Log.info("card cache: off (no CACHE_DIRECTORY from systemd, no cache_dir and no --cache-dir)")
            return DaemonCardCache(cache: nil, fallback: nil)
        }
        guard let reason = CardCache.writeProblem(directory) else {
            return DaemonCardCache(cache: CardCache(directory: directory, megabytes: shell.media.diskCacheMB), fallback: false)
        }
        let runtime = first("RUNTIME_DIRECTORY") ?? "/run/carouseld"
        let ceiling = freeMegabytes(runtime) / 4
        let fallbackDirectory = runtime + "/cache"
        guard ceiling > 0, CardCache.writeProblem(fallbackDirectory) == nil,
              let cache = CardCache(directory: fallbackDirectory, megabytes: shell.media.diskCacheMB, ceilingMegabytes: ceiling) else {
            Log.warning("card cache: \(directory): \(reason), and \(fallbackDirectory) cannot be written either; "
                        + "the card cache is off (cards are decoded from the originals)")
            return DaemonCardCache(cache: nil, fallback: nil)
        }
        Log.warning("card cache: \(directory): \(reason); using \(fallbackDirectory) instead "
                    + "(in RAM, at most \(min(shell.media.diskCacheMB, ceiling)) MB, gone at reboot; cache_dir names a writable partition)")
        return DaemonCardCache(cache: cache, fallback: true)
    }

    private static func freeMegabytes(_ directory: String) -> Int {
        var info = statvfs()
        guard statvfs(directory, &info) == 0 else { return 0 }
        return Int(info.f_bavail) * Int(info.f_frsize) / 1_048_576
    }
}
