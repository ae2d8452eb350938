import Foundation
import Notifications
import Testing

/// Priorities: ordered by insistence, saved as their raw strings.
struct NotificationPriorityTests {
  @Test func prioritiesAreOrderedSilentRegularHigh() {
    #expect(NotificationPriority.silent < .regular)
    #expect(NotificationPriority.regular < .high)
    #expect(NotificationPriority.allCases.sorted() == [.silent, .regular, .high])
    #expect([NotificationPriority.high, .silent, .regular].max() == .high)
  }

  @Test func prioritiesAreTheirRawStringsInJSON() throws {
    for priority in NotificationPriority.allCases {
      #expect(try ModelJSON.encode(priority) == "\"\(priority.rawValue)\"")
      #expect(
        try ModelJSON.decode(NotificationPriority.self, "\"\(priority.rawValue)\"") == priority)
    }
    #expect(NotificationPriority.allCases.map(\.rawValue) == ["silent", "regular", "high"])
  }
}
