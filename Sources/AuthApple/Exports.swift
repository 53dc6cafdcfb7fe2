// `import AuthApple` also brings the app machinery its shells plug into (the Keychain storage, app hand-off,
// vendor-session adoption), as an app that uses one uses the other.
@_exported public import AuthAppSupport
