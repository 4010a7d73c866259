import Glibc

/// The operator's side of the daemon (issue 15): the screen power schedule, dayparting, the
/// control socket and state.json, and `ctl pause`.
extension DaemonRunner {
    func wireOperations() throws {
        let shell = live.current.shell
        let power = try PowerController(shell: shell, displays: displays, loop: loop)
        power.onChange = { [unowned self] on in
            updatePause()
            if on { for group in groups { group.daemon.setNeedsRedraw() } }
            publish()
        }
        self.power = power
        updatePause()
        if !power.isOn {
            // Started during the screen's off hours: nothing will be drawn, yet the daemon is up,
            // and a touch must be able to wake the screen.
            loop.post { [unowned self] in
                Log.info("started with the screen off (\(power.state.reason)); a touch wakes it")
                notifier.ready()
                if wayland == nil { openInput() }
            }
        }
        let dayparts = try DaypartController(loaded: live.current, loop: loop)
        dayparts.onSwitch = { [unowned self] _, items in
            let now = MonotonicClock.now()
            for (index, group) in groups.enumerated() where group.plan.playlistOutput == nil {
                if syncs.indices.contains(index), let sync = syncs[index] {
                    // A synced carousel follows the clock in the new playlist (a cut if far).
                    group.swapIn(config: group.config, shell: group.shell, items: items, keepIndex: nil, now: now)
                    sync.configure(shell: live.current.shell)
                } else {
                    group.switchPlaylist(to: items, now: now)
                }
            }
            publish()
        }
        self.dayparts = dayparts
        if let path = Self.controlPath(options.controlPath) {
            do {
                let server = try ControlServer(path: path, loop: loop)
                server.answer = { [unowned self] request, uid in answer(request, uid: uid) }
                control = server
                stateFile = StateFile(path: Self.directory(of: path) + "/state.json")
            } catch {
                Log.warning("control socket \(path): \(error); running without it")
            }
        } else {
            Log.info("no control socket (no $RUNTIME_DIRECTORY, /run/carouseld not writable; --control PATH sets one)")
        }
        publish()
    }

    /// `--control`, else systemd's RuntimeDirectory=, else /run/carouseld when it can be written.
    static func controlPath(_ option: String?) -> String? {
        if let option { return option }
        if let runtime = getenv("RUNTIME_DIRECTORY").map({ String(cString: $0) }), !runtime.isEmpty {
            // Several directories are separated by ':'; the first is ours.
            return String(runtime.split(separator: ":").first ?? Substring(runtime)) + "/control"
        }
        return access("/run/carouseld", W_OK) == 0 ? "/run/carouseld/control" : nil
    }

    /// "/run/carouseld" of "/run/carouseld/control".
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Every carousel's auto-advance is held while paused by ctl, while the screens sleep, and
    /// while the wall clock drives it.
    func updatePause() {
        let now = MonotonicClock.now()
        for (index, group) in groups.enumerated() {
            let synced = syncs.indices.contains(index) && syncs[index] != nil
            let paused = ctlPaused || !(power?.isOn ?? true) || synced
            if group.daemon.engine.isPaused != paused { group.daemon.modifyEngine { $0.setPaused(paused, now: now) } }
        }
    }

    /// The status line and state.json, after anything that changes what they say.
    func publish() {
        announce()
        stateFile?.write(status())
    }

    func status() -> DaemonStatus {
        let now = MonotonicClock.now()
        let carousels = groups.map { group -> DaemonStatus.Carousel in
            let index = group.daemon.engine.selectedIndex
            return DaemonStatus.Carousel(output: group.plan.name, index: index + 1, count: group.items.count,
                                         name: group.items.indices.contains(index) ? group.items[index].name : nil)
        }
        let first = carousels[0]
        let loaded = live.current
        let playlist = dayparts?.file.map { loaded.directory + "/" + $0 } ?? loaded.playlistFile ?? loaded.mediaDirectory
        let screen = power?.state ?? (on: true, reason: "always")
        return DaemonStatus(index: first.index, count: first.count, name: first.name, playlist: playlist,
                            screen: screen.on ? "on" : "off", screenReason: screen.reason,
                            sync: syncs.first.flatMap { $0 }?.state(now: now), paused: ctlPaused,
                            generation: generation, configError: live.controller.problems.first,
                            uptime: ((now - startedAt) * 1000).rounded() / 1000,
                            frames: groups.reduce(0) { $0 + $1.daemon.framesPresented }, outputs: carousels)
    }

    /// Does what a control request asks, on every carousel.
    func answer(_ request: ControlRequest, uid: UInt32) -> ControlReply {
        let now = MonotonicClock.now()
        if request != .status { Log.info("control: \(request) (uid \(uid))") }
        switch request {
        case .status:
            return ControlReply(ok: true, status: status())
        case .next, .prev:
            for (index, group) in groups.enumerated() {
                if syncs.indices.contains(index) { syncs[index]?.touched(now: now) }
                group.daemon.updateEngine { $0.page(by: request == .next ? 1 : -1, now: now) }
            }
            publish()
            return .done(groups[0].showing)
        case .goto(let target):
            var moved = false
            for (index, group) in groups.enumerated() {
                let found: Int?
                switch target {
                case .number(let n): found = n <= group.items.count ? n - 1 : nil
                case .name(let name): found = group.items.firstIndex { $0.name == name || $0.path.hasSuffix("/" + name) }
                }
                guard let found else { continue }
                if syncs.indices.contains(index) { syncs[index]?.touched(now: now) }
                group.daemon.updateEngine { $0.show(item: found, animated: true, now: now) }
                moved = true
            }
            guard moved else {
                switch target {
                case .number(let n): return .failure("goto \(n): the playlist has \(groups[0].items.count) pictures")
                case .name(let name): return .failure("goto \(name): no picture of that name in the playlist")
                }
            }
            publish()
            return .done(groups[0].showing)
        case .pause, .resume:
            ctlPaused = request == .pause
            updatePause()
            publish()
            return .done()
        case .reload:
            live.requestReload()
            lead.wake()
            return .done()
        case .screen(let mode):
            power?.set(mode)
            publish()
            return .done("screen \(power?.isOn ?? true ? "on" : "off")")
        }
    }
}
