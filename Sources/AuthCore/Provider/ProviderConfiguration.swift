public import Foundation

/// A provider's configuration as it arrives from an app: an Info.plist dictionary, a JSON file, or code.
///
/// Accessors that a provider's initializer uses to read its keys throw ``AuthError`` values that name the key
/// and say what to fix.
public struct ProviderConfiguration: Sendable, Hashable {
    /// The raw values by key.
    package var values: [String: JSONValue]

    /// Creates a configuration from JSON-like values.
    public init(_ values: [String: JSONValue] = [:]) { self.values = values }

    /// Creates a configuration from a Foundation dictionary such as `Bundle.main.infoDictionary` or a section of it.
    ///
    /// - Throws: `invalid_configuration` for a value that is not a string, number, boolean, date, array or dictionary.
    public init(dictionary: [String: Any]) throws {
        self.values = try dictionary.mapValues { try Self.convert($0) }
    }

    /// Parses a JSON object.
    public init(json data: Data) throws {
        do {
            self.values = try JSONValue.parseObject(data)
        } catch {
            throw AuthError(.invalidConfiguration, "The configuration is not a JSON object.", underlying: error)
        }
    }

    /// Parses a property list whose root is a dictionary (XML or binary).
    ///
    /// Package-only: an app reads a property-list file with ``init(contentsOf:)``, or passes Info.plist's dictionary to
    /// ``init(dictionary:)``.
    package init(propertyList data: Data) throws {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw AuthError(.invalidConfiguration, "The configuration is not a property list.", underlying: error)
        }
        guard let dictionary = root as? [String: Any] else {
            throw AuthError(.invalidConfiguration, "The property list's root is not a dictionary.")
        }
        try self.init(dictionary: dictionary)
    }

    /// Reads a JSON or property-list file (chosen by content: a file starting with `{` is JSON).
    ///
    /// - Throws: `configuration_file_not_found` when the file is missing; `configuration_file_invalid` when it is
    ///   not a JSON object or a property-list dictionary.
    public init(contentsOf url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw AuthError(.configurationFileNotFound, "The configuration file \(url.path) does not exist.")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw AuthError(.configurationFileInvalid, "Cannot read the configuration file at \(url.path).", underlying: error)
        }
        let firstByte = data.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
        do {
            if firstByte == UInt8(ascii: "{") {
                try self.init(json: data)
            } else {
                try self.init(propertyList: data)
            }
        } catch let error as AuthError {
            throw AuthError(.configurationFileInvalid, "\(url.lastPathComponent): \(error.message)", underlying: error)
        }
    }

    /// The value for `key`.
    public subscript(key: String) -> JSONValue? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// The string for the first of `keys` that is present (numbers and booleans are rendered as text).
    public func string(_ keys: String...) -> String? {
        for key in keys {
            if let value = string(key) { return value }
        }
        return nil
    }

    /// The string for `key` (numbers and booleans are rendered as text). The one-key form builds no array of keys:
    /// providers call it for every key they read.
    package func string(_ key: String) -> String? {
        switch values[key] {
        case .string(let value): return value
        case .number(let value): return JSONValue.number(value).int64Value.map(String.init) ?? String(value)
        case .bool(let value): return value ? "true" : "false"
        default: return nil
        }
    }

    /// The non-empty string for `key` (or the first present alias), trimmed of surrounding whitespace.
    ///
    /// - Throws: `missing_configuration_key` naming the key, when it is absent or blank.
    public func requiredString(_ key: String, aliases: [String] = [], providerID: ProviderID? = nil) throws -> String {
        if let value = Self.trimmed(string(key)) { return value }
        for alias in aliases {
            if let value = Self.trimmed(string(alias)) { return value }
        }
        throw AuthError(
            .missingConfigurationKey,
            "The configuration key '\(key)' is missing or empty; set it to the value from the provider's console.",
            providerID: providerID,
            configurationKey: key
        )
    }

    /// `text` without surrounding whitespace, `nil` when nothing is left. Values from a console rarely carry any,
    /// so the common case returns the text as it is (Foundation's trimming cost more than the rest of building a
    /// provider).
    private static func trimmed(_ text: String?) -> String? {
        guard let text, let first = text.utf8.first, let last = text.utf8.last else { return nil }
        // Only ASCII whitespace or a non-ASCII byte (which may start or end Unicode whitespace) needs trimming.
        guard mayBeWhitespace(first) || mayBeWhitespace(last) else { return text }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
    }

    /// `text` split at whitespace, as scope strings are written. Scopes are ASCII (RFC 6749 §3.3): the split runs on
    /// the bytes, and on Unicode whitespace only for other text.
    package static func words(_ text: String) -> [String] {
        var text = text
        return text.withUTF8 { bytes -> [String] in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init) }
            var words: [String] = []
            var start = 0
            for index in 0...bytes.count {
                guard index == bytes.count || bytes[index] == 0x20 || (0x09...0x0D).contains(bytes[index]) else { continue }
                if index > start { words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)) }
                start = index + 1
            }
            return words
        }
    }

    private static func mayBeWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte) || byte >= 0x80
    }

    /// An absolute URL for `key`.
    ///
    /// - Throws: `missing_configuration_key` when absent, `invalid_configuration` when not an absolute URL.
    public func requiredURL(_ key: String, aliases: [String] = [], providerID: ProviderID? = nil) throws -> URL {
        let text = try requiredString(key, aliases: aliases, providerID: providerID)
        guard let url = URL(string: text), url.scheme != nil else {
            throw AuthError(
                .invalidConfiguration,
                "The configuration key '\(key)' must be an absolute URL, for example https://example.com/path.",
                providerID: providerID,
                configurationKey: key
            )
        }
        return url
    }

    /// A boolean for `key`: a boolean, a number (0 is false) or the strings `true`/`false`/`yes`/`no`.
    public func bool(_ key: String) -> Bool? {
        switch values[key] {
        case .bool(let value): return value
        case .number(let value): return value != 0
        case .string(let value):
            switch value.lowercased() {
            case "true", "yes", "1": return true
            case "false", "no", "0": return false
            default: return nil
            }
        default: return nil
        }
    }

    /// Scopes for `key`: a space-separated string or an array of strings.
    public func scopes(_ key: String) -> [String]? {
        switch values[key] {
        case .string(let value): return Self.words(value)
        case .array(let items): return items.compactMap(\.stringValue)
        default: return nil
        }
    }

    /// A nested dictionary for `key` (for example Grab's `GrabIdPartnerSDK` section of Info.plist).
    public func section(_ key: String) -> ProviderConfiguration? {
        values[key]?.objectValue.map(ProviderConfiguration.init)
    }

    /// String values of the nested dictionary for `key`.
    public func stringDictionary(_ key: String) -> [String: String]? {
        section(key).map { section in
            section.values.keys.reduce(into: [String: String]()) { result, name in
                if let value = section.string(name) { result[name] = value }
            }
        }
    }

    private static func convert(_ value: Any) throws -> JSONValue {
        switch value {
        case let value as String: return .string(value)
        case let value as Bool where type(of: value) == Bool.self: return .bool(value)
        case let value as Int: return .number(Double(value))
        case let value as Double: return .number(value)
        case let value as NSNumber: return .number(value.doubleValue)
        case let value as Date: return .number(value.timeIntervalSince1970)
        case let value as URL: return .string(value.absoluteString)
        case let value as [Any]: return .array(try value.map(convert))
        case let value as [String: Any]: return .object(try value.mapValues(convert))
        case is NSNull: return .null
        default:
            throw AuthError(.invalidConfiguration, "Unsupported configuration value of type \(type(of: value)).")
        }
    }
}
