import Loom

/// Collects the issues a store reports, for tests that check misuse is reported.
final class IssueLog: Sendable {
  let messages = Locked<[String]>([])
  let locations = Locked<[CodeLocation]>([])

  var reporter: IssueReporter {
    IssueReporter { [messages, locations] message, location in
      messages.append(message)
      locations.withValue { $0.append(location) }
    }
  }
}
