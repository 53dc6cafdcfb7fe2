import Foundation

/// A stand-in for `secret-tool` in a temporary directory: a small Python program that keeps items in a JSON file,
/// answers `store`, `search --all` (attributes on standard error) and `clear` as libsecret's tool does, and records every argument list it gets.
struct FakeSecretTool {
    /// How the fake behaves.
    enum Mode: String {
        /// Keeps items like a Secret Service.
        case normal
        /// Never answers (a collection waiting for an unlock prompt).
        case hang
        /// Fails as secret-tool does without a session bus.
        case noBus = "nobus"
        /// Lists items without their secrets (a locked collection).
        case locked
    }

    let directory: URL
    let executable: URL

    init(_ mode: Mode = .normal) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fake-secret-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.init(directory: directory, mode: mode)
    }

    /// Another fake over the items of `directory` (its program is written next to them, named by its mode).
    init(directory: URL, mode: Mode) {
        self.directory = directory
        executable = directory.appendingPathComponent("secret-tool-\(mode.rawValue)")
        let program = Self.program.replacingOccurrences(of: "@MODE@", with: mode.rawValue)
            .replacingOccurrences(of: "@DIR@", with: directory.path)
        try? Data(program.utf8).write(to: executable)
        try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: executable.path)
    }

    /// Every argument list the fake received, one per line.
    var argumentLog: String {
        (try? String(contentsOf: directory.appendingPathComponent("argv.log"), encoding: .utf8)) ?? ""
    }

    /// The stored items' secrets as the fake keeps them.
    var storedSecrets: [String] {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("items.json")),
            let items = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { return [] }
        return items.compactMap { $0["secret"] as? String }
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    private static let program = #"""
        #!/usr/bin/env python3
        import json, os, sys, time
        mode, base = "@MODE@", "@DIR@"
        with open(os.path.join(base, "argv.log"), "a") as log:
            log.write(json.dumps(sys.argv[1:]) + "\n")
        if mode == "hang":
            time.sleep(60)
        if mode == "nobus":
            sys.stderr.write("secret-tool: Cannot autolaunch D-Bus without X11 $DISPLAY\n")
            sys.exit(1)
        path = os.path.join(base, "items.json")
        items = json.load(open(path)) if os.path.exists(path) else []
        command, args = sys.argv[1], sys.argv[2:]
        label = None
        if command == "store":
            label, args = args[1], args[2:]
        if command == "search":
            args = [a for a in args if a != "--all"]
        wanted = dict(zip(args[0::2], args[1::2]))
        matches = [i for i in items if all(i["attributes"].get(k) == v for k, v in wanted.items())]
        if command == "store":
            secret = sys.stdin.read()
            items = [i for i in items if i["attributes"] != wanted] + [{"label": label, "attributes": wanted, "secret": secret}]
            json.dump(items, open(path, "w"))
        elif command == "search":
            for n, item in enumerate(matches):
                print("[/org/freedesktop/secrets/collection/login/%d]" % n)
                print("label = " + item["label"])
                if mode != "locked":
                    print("secret = " + item["secret"])
                print("schema = org.freedesktop.Secret.Generic")
                # As libsecret's secret-tool does: the attributes on standard error.
                for k, v in item["attributes"].items():
                    sys.stderr.write("attribute.%s = %s\n" % (k, v))
        elif command == "clear":
            json.dump([i for i in items if i not in matches], open(path, "w"))
            sys.exit(0 if matches else 1)
        """#
}
