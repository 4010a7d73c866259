import CarouselConfig

/// The daemon's start as systemd gives it (`carouseld run --config /etc/carouseld`, the unit's
/// ExecStart), read without ArgumentParser. Its parse reflects over the command types and casts
/// every property to a protocol, each first cast a scan of the binary's conformance records:
/// half the instructions from exec to `main` (valgrind: 11.4 of 22 million), and exec to the
/// first frame is what a panel at boot is judged by. Only plain spellings of `run`'s options
/// are read here; anything else (help, an unknown or repeated option, a value that needs
/// ArgumentParser's words, one the overrides' rules refuse) returns nil, and ArgumentParser
/// parses the whole line as it always has. `DaemonStartTests` keeps both readings equal.
enum DaemonStart {
    static func options(_ arguments: some Collection<String>) -> DaemonOptions? {
        var words = Array(arguments)
        if words.first == RunCommand.configuration.commandName { words.removeFirst() }
        var values: [String: String] = [:]
        var forceLegacy = false
        while let word = words.first {
            words.removeFirst()
            guard word.hasPrefix("--") else { return nil }
            if word == "--force-legacy" {
                guard !forceLegacy else { return nil }
                forceLegacy = true
                continue
            }
            let (name, inline) = split(word)
            guard valueOptions.contains(name), values[name] == nil else { return nil }
            guard let value = inline ?? words.first, !value.hasPrefix("-"), !value.isEmpty else { return nil }
            if inline == nil { words.removeFirst() }
            values[name] = value
        }
        let rotation = read(values["--rotation"], as: Int.init)
        let backend = read(values["--backend"], as: DisplayBackend.init(rawValue:))
        guard let rotation, let backend else { return nil }
        let options = DaemonOptions(configDirectory: values["--config"] ?? ConfigLoader.defaultDirectory,
                                    output: values["--output"], mode: values["--mode"], rotation: rotation,
                                    forceLegacy: forceLegacy, backend: backend,
                                    cacheDirectory: values["--cache-dir"], controlPath: values["--control"])
        return options.overrideIssues.isEmpty ? options : nil
    }

    private static let valueOptions: Set = ["--config", "--output", "--mode", "--rotation", "--backend", "--cache-dir", "--control"]

    /// An option's value read by `convert`: .some(nil) when the option is absent, nil when its
    /// text is not one.
    private static func read<Value>(_ text: String?, as convert: (String) -> Value?) -> Value?? {
        guard let text else { return .some(nil) }
        return convert(text).map { .some($0) }
    }

    /// "--name=value" into its name and value; "--name" alone has none.
    private static func split(_ word: String) -> (name: String, value: String?) {
        guard let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }
}
