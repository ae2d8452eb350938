// The snippets of the doc comments of ChangeIntent, ChangeRequest, NotificationClient.apply and
// NotificationData.version.

import Foundation
import NotificationClients
import Notifications
import Testing

struct ChangeDocSnippets {
  @Test func aChangeIntentNamesItsNotifications() {
    let values = featureDocValues {
      // snippet: change-intent
      let intent = ChangeIntent.markAsRead("n1")
      intent.ids   // ["n1"]
      // snippet: end
    }
    #expect(values[0] as? [String] == ["n1"])
  }

  @Test func aChangeRequestIsAppliedOnce() async throws {
    var ping = FeatureDocSamples.ping
    ping.isRead = true
    let backend = InMemoryNotificationBackend(seed: [ping])
    let client = backend.client
    // snippet: change-request
    let request = ChangeRequest(id: UUID(), .markAsUnread("n1"))
    let cursor = try await client.apply(request)   // the change's place in the backend's log
    let again = try await client.apply(request)    // the same cursor; changed once
    // snippet: end
    #expect(cursor == 1)
    #expect(again == 1)
    #expect(backend.notifications.map(\.version) == [1])
  }

  @Test func applyAnswersTheCursorOfTheChange() async throws {
    let backend = InMemoryNotificationBackend(seed: [FeatureDocSamples.ping])
    let client = backend.client
    // snippet: client-apply
    let cursor = try await client.apply(ChangeRequest(id: UUID(), .markAsRead("n1")))
    // snippet: end
    #expect(cursor == 1)
  }

  @Test func theNewerVersionWins() {
    var shown = FeatureDocSamples.ping
    shown.version = 3
    var incoming = shown
    incoming.isRead = true
    incoming.version = 2
    // snippet: notification-version
    if incoming.version ?? .zero >= shown.version ?? .zero { shown = incoming }
    // snippet: end
    #expect(shown.version == 3 && !shown.isRead)
  }
}

struct FeedInsertionDocSnippets {
  @Test func aNotificationIsInsertedInTheFeedsOrder() {
    var feed: NotificationFeed = [FeatureDocSamples.ping]
    var notification = FeatureDocSamples.alert
    notification.timestamp = .distantPast
    // snippet: feed-insertion-index
    feed.insert(notification, at: feed.insertionIndex(for: notification))
    // snippet: end
    #expect(feed.ids == ["n1", notification.id])
  }
}

