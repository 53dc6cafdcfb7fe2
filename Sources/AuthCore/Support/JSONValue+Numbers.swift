package import Foundation

/// Numbers from a provider are attacker input: `1e19`, `-5`, `"0x10"` or `"1e3"` must never reach an integer
/// conversion that traps, nor become a date no calendar can print. These accessors accept only values that every
/// later step (date arithmetic, `Int` conversion, JSON encoding) handles, and return `nil` for anything else.
extension JSONValue {
    /// The latest instant accepted as a timestamp: 9999-12-31T23:59:59Z (RFC 7519 NumericDate, seconds).
    package static let latestTimestamp: TimeInterval = 253_402_300_799

    /// The longest lifetime accepted for `expires_in`: ten years. Longer values are clamped to it (a token that
    /// claims to live longer is refreshed earlier than it would need to be, which is harmless).
    package static let maximumLifetime: TimeInterval = 10 * 366 * 24 * 3600

    /// A NumericDate (RFC 7519 §2): a finite JSON number between the epoch and ``latestTimestamp``.
    package var timestampValue: Date? {
        guard case .number(let value) = self, value.isFinite, value >= 0, value <= Self.latestTimestamp else { return nil }
        return Date(timeIntervalSince1970: value)
    }

    /// A lifetime in seconds (`expires_in`, `interval`): a non-negative finite JSON number, or a string of at most
    /// 12 decimal digits (some servers quote it). Hex, exponents, signs, spaces and fractions in a string are
    /// refused; values above ``maximumLifetime`` are clamped to it.
    ///
    /// - Returns: `nil` when the value is not such a number.
    package var lifetimeValue: TimeInterval? {
        let seconds: TimeInterval
        switch self {
        case .number(let value):
            guard value.isFinite, value >= 0 else { return nil }
            seconds = value
        case .string(let text):
            guard !text.isEmpty, text.utf8.count <= 12, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let value = TimeInterval(text)
            else { return nil }
            seconds = value
        default:
            return nil
        }
        return min(seconds, Self.maximumLifetime)
    }

    /// An integer that fits `Int64` exactly (no fraction, no overflow), for identifiers such as Schibsted's numeric
    /// user ids.
    package var int64Value: Int64? {
        guard case .number(let value) = self else { return nil }
        return Int64(exactly: value)
    }
}

extension Date {
    /// Whether this date lies between the epoch and ``JSONValue/latestTimestamp`` (stored credentials are checked
    /// with it before use, so a tampered or corrupted file cannot carry a date that traps later).
    package var isWithinTimestampRange: Bool {
        let seconds = timeIntervalSince1970
        return seconds.isFinite && seconds >= 0 && seconds <= JSONValue.latestTimestamp
    }
}
