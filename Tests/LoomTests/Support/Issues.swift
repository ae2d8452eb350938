import Loom

/// Collects the issues a store reports, for tests that check misuse is reported.
final class IssueLog: Sendable {
  let messages = Locked<[String]>([])

  var reporter: IssueReporter {
    IssueReporter { [messages] message, _ in messages.append(message) }
  }
}
