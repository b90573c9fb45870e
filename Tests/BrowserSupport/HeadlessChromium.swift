import Foundation
import TestSupport

/// Debian's `chromium`, headless, driven over the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: commands on fd 3, replies on fd 4, each message ending in NUL),
/// so no port is opened and no WebSocket is needed. Network access is refused: pages come from
/// `file://` URLs.
///
/// Every wait has a deadline and suspends (it holds no thread while the browser works); the
/// browser is killed when the session ends.
public final class HeadlessChromium {
    /// A DevTools command failed, a wait timed out, or the browser is missing or gone.
    public struct Failure: Error, CustomStringConvertible {
        /// What happened.
        public let description: String
    }

    /// The browser executable: `$CHROMIUM`, or `chromium` / `chromium-browser` on `PATH`.
    public static var executable: String? {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["CHROMIUM"], FileManager.default.isExecutableFile(atPath: explicit) {
            return explicit
        }
        let directories = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for name in ["chromium", "chromium-browser"] {
            for directory in directories {
                let path = (directory as NSString).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: path) { return path }
            }
        }
        return nil
    }

    private let process: pid_t
    private let commands: Int32
    private let replies: Int32
    private let profile: String
    private var buffer: [UInt8] = []
    private var nextID = 0
    private var session: String?
    private var closed = false

    /// Starts the browser with a window of `width`×`height` CSS pixels.
    ///
    /// - Throws: ``Failure`` when Chromium is not installed or does not start.
    public nonisolated(nonsending) init(width: Int = 1400, height: Int = 1000) async throws {
        guard let executable = Self.executable else {
            throw Failure(description: "chromium is not installed (apt-get install chromium, or set CHROMIUM)")
        }
        profile = NSTemporaryDirectory() + "atoms-chromium-\(UUID().uuidString)"
        var toBrowser: [Int32] = [0, 0]
        var fromBrowser: [Int32] = [0, 0]
        guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else {
            throw Failure(description: "cannot make pipes for chromium")
        }
        let arguments = [
            executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
            "--user-data-dir=\(profile)", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
            "--disable-background-networking", "--disable-sync", "--disable-component-update", "--mute-audio",
            "--hide-scrollbars", "--disable-dev-shm-usage", "--host-resolver-rules=MAP * ~NOTFOUND", "--window-size=\(width),\(height)", "about:blank",
        ]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toBrowser[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromBrowser[1], 4)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        InheritedDescriptors.close(above: 4, in: &actions)
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        Foundation.close(toBrowser[0])
        Foundation.close(fromBrowser[1])
        guard status == 0 else {
            Foundation.close(toBrowser[1])
            Foundation.close(fromBrowser[0])
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        process = pid
        commands = toBrowser[1]
        replies = fromBrowser[0]
        _ = fcntl(commands, F_SETFD, FD_CLOEXEC)
        _ = fcntl(replies, F_SETFD, FD_CLOEXEC)
        do {
            // The first reply waits for the browser to start: under ThreadSanitizer, with the
            // other suites running on both cores, that once took more than 30 seconds.
            let target = try await send("Target.createTarget", ["url": "about:blank"], timeout: 90)
            guard let targetID = target["targetId"] as? String else { throw Failure(description: "no target: \(target)") }
            let attached = try await send("Target.attachToTarget", ["targetId": targetID, "flatten": true])
            session = attached["sessionId"] as? String
            _ = try await send("Page.enable", [:])
            _ = try await send("Runtime.enable", [:])
        } catch {
            close()
            throw error
        }
    }

    deinit {
        close()
    }

    /// Kills the browser and removes its profile.
    public func close() {
        guard !closed else { return }
        closed = true
        kill(process, SIGKILL)
        Foundation.close(commands)
        Foundation.close(replies)
        // Its exit is collected, and then its profile removed, on a thread of its own.
        let (process, profile) = (process, profile)
        Thread.detachNewThread {
            var status: Int32 = 0
            waitpid(process, &status, 0)
            try? FileManager.default.removeItem(atPath: profile)
        }
    }

    /// Opens a URL and waits until `condition` (a JavaScript expression) is true.
    public nonisolated(nonsending) func open(_ url: String, until condition: String, timeout: TimeInterval = 30) async throws {
        _ = try await send("Page.navigate", ["url": url], timeout: timeout)
        try await wait(until: condition, timeout: timeout)
    }

    /// Waits until a JavaScript expression is true, checking every 20 ms.
    public nonisolated(nonsending) func wait(until condition: String, timeout: TimeInterval = 30) async throws {
        let deadline = Patience.date(after: timeout)
        while Date() < deadline {
            if try await evaluate("Boolean(\(condition))") as? Bool == true { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(description: "timed out after \(Patience.seconds(timeout)) s waiting for \(condition)")
    }

    /// Evaluates a JavaScript expression (awaiting a promise) and returns its value as JSON
    /// gives it (`String`, `NSNumber`, `Bool`, arrays, dictionaries, or `nil`).
    ///
    /// - Throws: ``Failure`` when the expression throws.
    public nonisolated(nonsending) func evaluate(_ expression: String, timeout: TimeInterval = 120) async throws -> Any? {
        let result = try await send("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true], timeout: timeout)
        if let exception = result["exceptionDetails"] as? [String: Any] {
            let text = ((exception["exception"] as? [String: Any])?["description"] as? String) ?? "\(exception)"
            throw Failure(description: "JavaScript threw: \(text)")
        }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Presses and releases a key, as a user at the keyboard would (`ArrowRight`, …).
    public nonisolated(nonsending) func press(key: String, code: Int) async throws {
        for type in ["rawKeyDown", "keyUp"] {
            _ = try await send("Input.dispatchKeyEvent", ["type": type, "key": key, "code": key, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code])
        }
    }

    /// A PNG of the viewport.
    public nonisolated(nonsending) func screenshot() async throws -> Data {
        let result = try await send("Page.captureScreenshot", ["format": "png"])
        guard let text = result["data"] as? String, let data = Data(base64Encoded: text) else {
            throw Failure(description: "no screenshot data")
        }
        return data
    }

    // MARK: Protocol

    /// Sends a command and waits for its reply (events in between are skipped).
    @discardableResult
    public nonisolated(nonsending) func send(_ method: String, _ parameters: [String: Any], timeout: TimeInterval = 60) async throws -> [String: Any] {
        guard !closed else { throw Failure(description: "the browser was closed") }
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": parameters]
        if let session, !method.hasPrefix("Target.") { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
            guard written > 0 else { throw Failure(description: "chromium stopped reading commands") }
            offset += written
        }
        let deadline = Patience.date(after: timeout)
        while true {
            let reply = try await nextMessage(deadline: deadline, waitingFor: method)
            guard reply["id"] as? Int == nextID else { continue }
            if let error = reply["error"] as? [String: Any] {
                throw Failure(description: "\(method) failed: \(error["message"] ?? error)")
            }
            return reply["result"] as? [String: Any] ?? [:]
        }
    }

    private nonisolated(nonsending) func nextMessage(deadline: Date, waitingFor method: String) async throws -> [String: Any] {
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let message = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                guard let object = try? JSONSerialization.jsonObject(with: Data(message)) as? [String: Any] else { continue }
                return object
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw Failure(description: "timed out waiting for the reply to \(method)") }
            // A look that does not block, and a sleep between looks: the reply may take
            // seconds (a page's load), and a blocked thread would be one other tests lack.
            var descriptor = pollfd(fd: replies, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0 else {
                try await Task.sleep(for: .milliseconds(2))
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(replies, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure(description: "chromium exited while waiting for \(method)") }
            buffer.append(contentsOf: chunk[..<count])
        }
    }
}
