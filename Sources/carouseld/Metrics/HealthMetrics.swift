/// The box's health (`BoxHealth`) as Prometheus series, written as `MetricsText` writes its own
/// (`PrometheusWriter`). A figure the board does not report has no series.
enum HealthMetrics {
    static func render(_ health: BoxHealth) -> String {
        var writer = PrometheusWriter()
        func metric(_ name: String, _ help: String, _ samples: [(labels: String, value: Int)]) {
            guard !samples.isEmpty else { return }
            writer.metric(name, "gauge", help, samples.map { ($0.labels, Double($0.value)) })
        }
        if let now = health.underVoltageNow {
            metric("carouseld_under_voltage", "1 while the supply is below its minimum (the Pi's rpi_volt alarm).", [("", now ? 1 : 0)])
        }
        if let since = health.underVoltageSinceBoot {
            metric("carouseld_under_voltage_since_boot", "1 once the supply has been below its minimum since boot (the Pi's firmware).",
                   [("", since ? 1 : 0)])
        }
        let mounts = health.fileSystems.map { (labels: PrometheusWriter.labels([("device", $0.device), ("mountpoint", $0.mountPoint)]), fs: $0) }
        metric("carouseld_filesystem_errors", "ext4 errors recorded in the superblock (errors_count; kept across boots).",
               mounts.map { ($0.labels, $0.fs.errors) })
        metric("carouseld_filesystem_read_only", "1 while the ext4 file system is mounted read-only (by the kernel after errors, or by design).",
               mounts.map { ($0.labels, $0.fs.readOnly ? 1 : 0) })
        metric("carouseld_mmc_life_time", "The card's own wear estimate (JEDEC life_time): 1 is 0-10 % used, 10 is 90-100 %, 11 past its end of life.",
               health.cards.flatMap { card in
                   [("A", card.lifeTimeA), ("B", card.lifeTimeB)].compactMap { type, value in
                       value.map { (labels: PrometheusWriter.labels([("device", card.device), ("type", type)]), value: $0) }
                   }
               })
        metric("carouseld_mmc_pre_eol_info", "The card's reserved blocks (JEDEC pre_eol_info): 1 normal, 2 warning (80 % used), 3 urgent.",
               health.cards.compactMap { card in card.preEOL.map { (labels: PrometheusWriter.labels([("device", card.device)]), value: $0) } })
        return writer.text
    }
}
