// expect: missing argument for parameter #2 in call
// A Keychain read without its result pointer: Apple's SecItemCopyMatching takes two arguments.
import Foundation
import Security

func read(_ query: [String: Any]) -> OSStatus {
    SecItemCopyMatching(query as CFDictionary)
}
