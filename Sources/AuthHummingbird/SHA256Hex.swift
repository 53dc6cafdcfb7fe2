#if WebSignIn
import Crypto
import Foundation

/// SHA-256 of `value`'s UTF-8 in lowercase hex: how session ids, sign-in cookies and states are kept (never the
/// values themselves), in every store.
package func sha256Hex(_ value: String) -> String {
    SHA256.hash(data: Data(value.utf8)).map { String(format: "%02x", $0) }.joined()
}
#endif
