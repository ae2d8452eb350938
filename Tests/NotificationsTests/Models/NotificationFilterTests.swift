import Foundation
import Notifications
import Testing

/// Filters: which notifications they let through, and how they are saved.
struct NotificationFilterTests {
  func notification(_ type: NotificationType) -> NotificationData {
    NotificationData(id: "n", type: type, title: "", message: "", timestamp: .distantPast)
  }

  @Test func allMatchesEveryType() {
    for type in NotificationType.knownCases + [.unknown("poll")] {
      #expect(NotificationFilter.all.matches(notification(type)))
    }
  }

  @Test func aTypeFilterMatchesOnlyThatType() {
    for filterType in NotificationType.knownCases {
      for type in NotificationType.knownCases {
        #expect(
          NotificationFilter.type(filterType).matches(notification(type)) == (filterType == type))
      }
    }
  }

  @Test func anUnknownTypeFilterMatchesTheSameRawString() {
    #expect(NotificationFilter.type(.unknown("poll")).matches(notification(.unknown("poll"))))
    #expect(!NotificationFilter.type(.unknown("poll")).matches(notification(.unknown("vote"))))
    #expect(!NotificationFilter.type(.unknown("poll")).matches(notification(.system)))
  }

  @Test func filtersEncodeToTheirExactShape() throws {
    #expect(try ModelJSON.encode(NotificationFilter.all) == #"{"kind":"all"}"#)
    #expect(
      try ModelJSON.encode(NotificationFilter.type(.checkIn))
        == #"{"kind":"type","type":"check_in"}"#)
    #expect(
      try ModelJSON.encode(NotificationFilter.type(.unknown("poll")))
        == #"{"kind":"type","type":"poll"}"#)
  }

  @Test func filtersRoundTrip() throws {
    for filter in [NotificationFilter.all, .type(.alert), .type(.checkIn), .type(.unknown("poll"))]
    {
      #expect(try ModelJSON.decode(NotificationFilter.self, try ModelJSON.encode(filter)) == filter)
    }
  }

  @Test func aFilterSavedInTheOldSynthesizedShapeStillRestores() throws {
    #expect(try ModelJSON.decode(NotificationFilter.self, #"{"all":{}}"#) == .all)
    #expect(
      try ModelJSON.decode(NotificationFilter.self, #"{"type":{"_0":"ping"}}"#) == .type(.ping))
  }
}
