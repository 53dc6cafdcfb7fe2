/// Strict UTF-8 validation for untrusted text.
///
/// Invalid sequences are refused, never replaced with U+FFFD: two different byte strings must not decode to the
/// same claim or parameter value.
enum UTF8Validation {
    /// Whether `bytes` is well-formed UTF-8 (no overlong forms, surrogates, or code points past U+10FFFF).
    static func isValid(_ bytes: some Sequence<UInt8>) -> Bool {
        !transcode(bytes.makeIterator(), from: UTF8.self, to: UTF32.self, stoppingOnError: true, into: { _ in })
    }
}
