/// The collection of dependencies available to reducers and effects.
///
/// Reducers read dependencies with the `@Dependency` property wrapper; the store that runs a
/// reducer binds its own `DependencyValues` while the reducer and its effects run, so a test
/// store's overrides reach every effect it starts.
public struct DependencyValues: Sendable {
  /// The dependencies of the current task. Stores bind this while they run reducers and effects.
  @TaskLocal package static var current = DependencyValues()

  /// Values set for dependency keys, by the key type's identity.
  var storage: [ObjectIdentifier: any Sendable] = [:]

  /// Where runtime issues go. See ``IssueReporter``.
  public var issueReporter: IssueReporter = .standardError

  /// Creates an empty set of dependencies in which every key resolves to its default value.
  public init() {}
}
