/// A key for a dependency in ``DependencyValues``, with a default value for each context.
///
/// ```swift
/// private enum FactClientKey: DependencyKey {
///   static let liveValue = FactClient.live
///   static let testValue = FactClient.unimplemented
///   static let previewValue = FactClient.preview
/// }
/// ```
///
/// A key that does not declare a `testValue` fails any test that uses it, naming the key: a
/// test should say what every dependency it exercises does.
public protocol DependencyKey: SendableMetatype {
  /// The type of the dependency.
  associatedtype Value: Sendable

  /// The value an app uses when running for real.
  static var liveValue: Value { get }

  /// The value used in previews and demos. The live value unless the key says otherwise.
  static var previewValue: Value { get }

  /// The value used in tests. Unless the key declares one, using the dependency in a test
  /// reports a failure naming the key, then falls back to the preview value (which is the live
  /// value unless the key declares one), as TCA does: a key with a preview runs no live code in
  /// a test.
  static var testValue: Value { get }
}

extension DependencyKey {
  public static var previewValue: Value { liveValue }

  public static var testValue: Value {
    let reporter = DependencyValues.resolvingTestValueReporter ?? .standardError
    reporter(
      """
      @Dependency(\(Self.self)) has no test value, and it was used in a test. Override it \
      in the test's "withDependencies", or give the key a "testValue".
      """,
      at: CodeLocation(fileID: "\(Self.self)", filePath: "\(Self.self)", line: 0, column: 0)
    )
    return previewValue
  }
}
