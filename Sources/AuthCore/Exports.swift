@_exported @_documentation(visibility: internal) public import struct HTTPTypes.HTTPField
// The transport seam's types come with `import AuthCore`, as Hummingbird re-exports them, so a custom transport or a
// `Session.send` call needs no second import. Only the seam: the rest of swift-http-types (field names, the
// Foundation bridges) is imported where it is used.
@_exported @_documentation(visibility: internal) public import struct HTTPTypes.HTTPFields
@_exported @_documentation(visibility: internal) public import struct HTTPTypes.HTTPRequest
@_exported @_documentation(visibility: internal) public import struct HTTPTypes.HTTPResponse
