import Loom

/// The runtime issues a store under test reported (from its reducer or from effects on other
/// threads), kept until the test store reports them at the next step of the test.
@usableFromInline
final class RuntimeIssues: Sendable {
  struct Issue: Sendable {
    let message: String
    let location: CodeLocation
  }

  private let issues = LockedState<[Issue]>([])

  func append(message: String, location: CodeLocation) {
    issues.withLock { $0.append(Issue(message: message, location: location)) }
  }

  func drain() -> [Issue] {
    issues.withLock { issues in
      defer { issues.removeAll() }
      return issues
    }
  }
}
