// The snippets of the doc comments of NotificationData.swift.

import Foundation
import Loom
import Notifications
import Testing

struct NotificationDataDocSnippets {
  typealias Text = FeatureDocStandIns.Text

  @Test func aNotificationKeepsWhatItIsCreatedWith() {
    // snippet: init
    let notification = NotificationData(
      id: "n1", type: .ping, title: "Ping", message: "Ada pinged you",
      timestamp: Date(timeIntervalSince1970: 1_700_000_000),
      target: .ping(pingID: "p1", contactID: "c1")
    )
    // snippet: end
    #expect(notification.target == .ping(pingID: "p1", contactID: "c1"))
    #expect(!notification.isRead)
    #expect(notification.priority == .regular)
    #expect(!notification.isLocal)
  }

  @Test func theFeedIsLookedUpByID() {
    let feed = IdentifiedArray(uniqueElements: FeatureDocSamples.notifications)
    let notification = FeatureDocSamples.alert
    let values = featureDocValues {
      // snippet: id
      feed[id: notification.id]
      // snippet: end
    }
    #expect(values.first as? NotificationData == FeatureDocSamples.alert)
  }

  @Test func thePropertiesFeedTheRow() {
    let notification = FeatureDocSamples.ping
    let values = featureDocValues {
      // snippet: type
      notification.type.symbolName   // "bell.badge.fill" for a ping
      // snippet: end
      // snippet: title
      Text(notification.title)
      // snippet: end
      // snippet: message
      Text(notification.message)
      // snippet: end
      // snippet: timestamp
      notification.timestamp.formatted(.relative(presentation: .named))
      // snippet: end
    }
    #expect(values.count == 4)
    #expect(values[0] as? String == "bell.badge.fill")
    #expect(values[1] as? Text == Text("Ping"))
    #expect(values[2] as? Text == Text("Ada pinged you"))
    #expect((values[3] as? String)?.isEmpty == false)
  }

  @Test func theFeedIsCountedAndGrouped() {
    let feed = FeatureDocSamples.notifications
    // snippet: is-read
    let unread = feed.filter { !$0.isRead }.count
    // snippet: end
    // snippet: thread-id
    let threads = Dictionary(grouping: feed, by: \.threadID)
    // snippet: end
    // snippet: is-local
    let syncable = feed.filter { !$0.isLocal }
    // snippet: end
    #expect(unread == 3)
    #expect(threads["ada"]?.map(\.id) == ["n1", "n3"])
    #expect(threads[nil]?.map(\.id) == ["n2", "local-1"])
    #expect(syncable.map(\.id) == ["n1", "n2", "n3"])
  }

  @Test func theTargetAndDetailsSayWhatToOpen() {
    var opened: [String] = []
    var printed: [String] = []
    func open(_ contactID: String) { opened.append(contactID) }
    func print(_ text: String) { printed.append(text) }
    for notification in FeatureDocSamples.notifications {
      // snippet: target
      if case .contact(let contactID) = notification.target { open(contactID) }
      // snippet: end
      // snippet: details
      if case .contact(let contact)? = notification.details { print(contact.name) }
      // snippet: end
    }
    #expect(opened == ["c2"])
    #expect(printed == ["Grace"])
  }

  @Test func aSilentNotificationGetsNoBanner() {
    var banners: [String] = []
    func present(_ notification: NotificationData) {
      // snippet: priority
      if notification.priority == .silent { return }   // no banner
      // snippet: end
      banners.append(notification.id)
    }
    FeatureDocSamples.notifications.forEach(present)
    #expect(banners == ["n1", "n2", "n3"])
  }

  @Test func aLocalNoticeIsCreatedWithItsDefaults() {
    // snippet: local-notice
    let notice = NotificationData(
      id: "local-1", type: .system, title: "Saved", message: "", timestamp: .now,
      priority: .silent, isLocal: true)
    // snippet: end
    #expect(notice.isLocal)
    #expect(notice.priority == .silent)
    #expect(notice.target == NotificationTarget.none)
    #expect(notice.details == nil)
    #expect(notice.threadID == nil)
  }

  @Test func theFeedIsSortedNewestFirst() {
    let tie = NotificationData(
      id: "n0", type: .ping, title: "Tie", message: "",
      timestamp: FeatureDocSamples.ping.timestamp)
    let notifications = FeatureDocSamples.notifications.reversed() + [tie]
    // snippet: is-ordered-before
    let feed = notifications.sorted(by: NotificationData.isOrderedBefore)
    // snippet: end
    #expect(feed.map(\.id) == ["n0", "n1", "n2", "n3", "local-1"])
  }
}
