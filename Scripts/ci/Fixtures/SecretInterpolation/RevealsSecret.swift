// Must compile, with warnings as errors (Scripts/ci/secret-interpolation-check.sh): the documented ways to send a
// Secret's value, or to write its redacted form on purpose.
public import AuthCore

public func authorizationHeader(_ accessToken: Secret) -> String {
    "Bearer " + accessToken.reveal()
}

public func authorizationHeader(_ accessToken: Secret?) -> String? {
    accessToken.map { "Bearer \($0.reveal())" }
}

public func logLine(_ accessToken: Secret, _ refreshToken: Secret?) -> String {
    "access \(accessToken.description), refresh \(String(describing: refreshToken))"
}
