// The transport seam's types: `HTTPRequest`, `HTTPResponse` and `HTTPFields` come with `import AuthCore`, as
// Hummingbird does, so a custom transport or a `Session.send` call needs no second import.
@_exported public import HTTPTypes
