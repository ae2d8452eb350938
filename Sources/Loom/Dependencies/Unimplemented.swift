/// The error an unimplemented endpoint throws after reporting that it was called.
public struct UnimplementedFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// The endpoint that was called, e.g. `"NotificationClient.fetchPage"`.
  public let endpoint: String

  /// Creates the failure for an endpoint.
  public init(endpoint: String) {
    self.endpoint = endpoint
  }

  public var description: String { "Unimplemented: \(endpoint)" }
}

/// Reports that an unimplemented endpoint was called.
func reportUnimplemented(_ endpoint: String, fileID: String, line: Int) {
  DependencyValues.current.issueReporter(
    """
    Unimplemented: \(endpoint) was called. Override it in the test's "withDependencies" if \
    the test expects this call.
    """,
    at: CodeLocation(fileID: fileID, filePath: fileID, line: line, column: 0)
  )
}

/// An endpoint for a test value that reports a failure naming `endpoint` when called, then
/// throws ``UnimplementedFailure``.
///
/// ```swift
/// static let testValue = FactClient(
///   fetch: unimplemented("FactClient.fetch"),
///   save: unimplemented("FactClient.save"),
///   updates: unimplemented("FactClient.updates", placeholder: AsyncStream { $0.finish() })
/// )
/// ```
public func unimplemented<each Argument, Result>(
  _ endpoint: String, fileID: String = #fileID, line: Int = #line
) -> @Sendable (repeat each Argument) async throws -> Result {
  { (_: repeat each Argument) in
    reportUnimplemented(endpoint, fileID: fileID, line: line)
    throw UnimplementedFailure(endpoint: endpoint)
  }
}

/// A non-throwing endpoint for a test value that reports a failure naming `endpoint` when
/// called, then returns `placeholder`.
///
/// ```swift
/// updates: unimplemented("FactClient.updates", placeholder: AsyncStream { $0.finish() })
/// ```
public func unimplemented<each Argument, Result: Sendable>(
  _ endpoint: String, placeholder: Result, fileID: String = #fileID, line: Int = #line
) -> @Sendable (repeat each Argument) -> Result {
  { (_: repeat each Argument) in
    reportUnimplemented(endpoint, fileID: fileID, line: line)
    return placeholder
  }
}

/// An asynchronous non-throwing endpoint that reports a failure naming `endpoint` when called,
/// then returns `placeholder`.
public func unimplemented<each Argument, Result: Sendable>(
  _ endpoint: String, placeholder: Result, fileID: String = #fileID, line: Int = #line
) -> @Sendable (repeat each Argument) async -> Result {
  { (_: repeat each Argument) in
    reportUnimplemented(endpoint, fileID: fileID, line: line)
    return placeholder
  }
}
