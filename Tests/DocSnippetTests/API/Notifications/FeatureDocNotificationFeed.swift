// The snippets of the doc comments of NotificationFeed and FilteredNotifications.

import Loom
import Notifications
import Testing

struct NotificationFeedDocSnippets {
  @Test func theFeedKeepsItsCountsAsItChanges() {
    let ping = FeatureDocSamples.ping
    let alert = FeatureDocSamples.alert
    // snippet: feed
    var feed: NotificationFeed = [ping, alert]
    feed[id: ping.id]?.isRead = true           // in place: one fewer unread
    let badge = feed.unreadCount               // O(1)
    let alerts = feed.filtered(.type(.alert))  // O(1): a view, in feed order
    // snippet: end
    #expect(badge == 1)
    #expect(alerts.map(\.id) == [alert.id])
  }

  @Test func aFeedIsBuiltFromNotificationsOrAnIdentifiedArray() {
    let page = NotificationPage(items: [FeatureDocSamples.ping, FeatureDocSamples.alert])
    do {
      // snippet: feed-init
      let feed = NotificationFeed(uniqueElements: page.items)
      // snippet: end
      #expect(feed.ids == ["n1", "n2"])
    }
    let identifiedArray = IdentifiedArray(uniqueElements: page.items)
    // snippet: feed-init-identified
    let feed = NotificationFeed(identifiedArray)
    // snippet: end
    #expect(feed.identifiedArray == identifiedArray)
  }

  @Test func theDerivedValuesAreRead() {
    let ping = FeatureDocSamples.ping
    let alert = FeatureDocSamples.alert
    // snippet: feed-literal
    let feed: NotificationFeed = [ping, alert]
    // snippet: end
    // snippet: feed-unread-count
    let badge = feed.unreadCount
    // snippet: end
    // snippet: feed-count-of-type
    let alerts = feed.count(of: .alert)
    // snippet: end
    // snippet: feed-filtered
    let unreadPings = feed.filtered(.type(.ping), unreadOnly: true)
    // snippet: end
    #expect(badge == 2)
    #expect(alerts == 1)
    #expect(unreadPings.map(\.id) == [ping.id])
  }

  @Test func theSubscriptChangesAndRemoves() {
    var feed = NotificationFeed(uniqueElements: [FeatureDocSamples.ping, FeatureDocSamples.alert])
    // snippet: feed-subscript
    feed[id: "n1"]?.isRead = true
    feed[id: "n2"] = nil
    // snippet: end
    #expect(feed.unreadCount == 0)
    #expect(feed.ids == ["n1"])
  }

  @Test func aFilteredViewReadsLikeACollection() {
    let feed = NotificationFeed(uniqueElements: FeatureDocSamples.notifications)
    // snippet: filtered-notifications
    let alerts = feed.filtered(.type(.alert))
    let shown = alerts.count   // O(1)
    let title = alerts.first?.title
    // snippet: end
    #expect(shown == 1)
    #expect(title == "Battery low")
  }
}
