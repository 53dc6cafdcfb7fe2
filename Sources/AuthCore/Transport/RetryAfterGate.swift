import Foundation
import HTTPTypes

/// The waits a provider asks for with `Retry-After` on HTTP 429 and 503 (RFC 9110 §10.2.3, RFC 6585 §4), kept per
/// origin and shared by every back-channel request of one client: concurrent callers wait out one deadline together
/// (one wait, not one each), and nobody sends to that server before it.
///
/// Bounded both ways: the engine waits at most ``maximumWait`` on its own (a longer wait is the caller's decision,
/// `rate_limited` with ``AuthError/retryAfter``), and a server's deadline is held for at most ``maximumHold``, so a
/// hostile or broken `Retry-After` cannot lock a client out for long.
actor RetryAfterGate {
    /// The longest wait the engine takes before a request without asking its caller: 30 seconds.
    static let maximumWait: TimeInterval = 30
    /// The longest a server's `Retry-After` is honoured: 5 minutes.
    static let maximumHold: TimeInterval = 300

    private var notBefore: [String: Date] = [:]

    /// The date before which nothing may be sent to `origin`, when it is still ahead of `now`.
    func deadline(for origin: String, now: Date) -> Date? {
        guard let date = notBefore[origin] else { return nil }
        if date <= now {
            notBefore[origin] = nil
            return nil
        }
        return date
    }

    /// Holds requests to `origin` until `date` (capped at ``maximumHold`` from `now`; a later hold never shortens an
    /// earlier one).
    func hold(_ origin: String, until date: Date, now: Date) {
        let capped = min(date, now.addingTimeInterval(Self.maximumHold))
        notBefore[origin] = max(notBefore[origin] ?? capped, capped)
    }

    /// The wait a `Retry-After` value asks for, from `now`: delay-seconds or an HTTP-date (IMF-fixdate, as RFC 9110
    /// §5.6.7 requires senders to use); `nil` for a missing or unreadable value; 0 for a date in the past.
    static func delay(_ value: String?, now: Date) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if value.allSatisfy(\.isASCIIDigit) {
            // Up to 9 digits: a longer number is capped anyway, and cannot overflow.
            return TimeInterval(value.count > 9 ? 999_999_999 : Int(value) ?? 0)
        }
        guard let date = httpDate(value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text)
    }
}

extension Character {
    /// `0`–`9` only (not other scripts' digits).
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension AuthError {
    /// This error with ``retryAfter`` set from a server's wait in seconds.
    func retrying(after seconds: TimeInterval?) -> AuthError {
        var copy = self
        copy.retryAfter = seconds.map { .milliseconds(Int64(($0 * 1000).rounded(.up))) }
        return copy
    }
}
