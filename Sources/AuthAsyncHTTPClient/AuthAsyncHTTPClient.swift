// Without the "AsyncHTTPClientTransport" trait this module is empty (see AsyncHTTPClientTransport.swift).
