// The snippets of the doc comments of the smaller models: NotificationDetails, NotificationFilter,
// NotificationPriority, NotificationTarget, UserFacingError and ISO8601.

import Foundation
import NotificationClients
import Notifications
import Testing

struct ModelDocSnippets {
  typealias Text = FeatureDocStandIns.Text

  @Test func changeCursorsOrderWhatABackendSays() async throws {
    let backend = InMemoryNotificationBackend(seed: [FeatureDocSamples.ping])
    let client = backend.client
    try await client.markAsRead("n1")
    let event = NotificationEvent(.deleted(id: "n1"), cursor: 2)
    // snippet: change-cursor
    let page = try await client.fetchPage(PageRequest(limit: 50))
    let missed = try await client.changesSince(page.changeCursor ?? .zero)
    let isNewer = event.cursor.map { $0 > page.changeCursor ?? .zero } ?? false
    // snippet: end
    #expect(page.changeCursor == 1)
    #expect(missed == [])
    #expect(isNewer)
    let values = featureDocValues {
      // snippet: change-cursor-text
      ChangeCursor("42")   // 42
      ChangeCursor("-1")   // nil
      // snippet: end
    }
    #expect(values[0] as? ChangeCursor? == .some(42))
    #expect(values[1] as? ChangeCursor? == .some(nil))
  }

  @Test func aPageKeyNamesTheLastNotificationOfAPage() throws {
    let page = NotificationPage(items: [FeatureDocSamples.ping, FeatureDocSamples.alert], hasMore: true)
    // snippet: page-key
    let next = PageKey(after: page.items[page.items.count - 1]).cursor
    let key = PageKey(cursor: next)   // the same key; nil for a string no backend gave
    // snippet: end
    #expect(key == PageKey(after: page.items[1]))
    #expect(PageKey(cursor: "50") == nil)
  }

  @Test func aLookUpOfADeletedNotificationSaysWhenItWasDeleted() async throws {
    let backend = InMemoryNotificationBackend(seed: [FeatureDocSamples.ping])
    let client = backend.client
    let id = FeatureDocSamples.ping.id
    let deletedAt = try #require(try await client.apply(ChangeRequest(id: UUID(), .delete(id))))
    var feed = ServerFeed()
    // snippet: deleted-notification
    do {
      let copy = try await client.fetchNotification(id)
      feed.fetched(copy)
    } catch let deleted as DeletedNotificationError {
      feed.remove(deleted.id, at: deleted.cursor)
    }
    // snippet: end
    #expect(feed.deletions == [id: deletedAt])
  }

  @Test func anIDFromOutsideIsChecked() throws {
    let argument = ""
    var printed: [String] = []
    func print(_ text: String) { printed.append(text) }
    // snippet: check-id-catch
    do {
      try NotificationData.checkID(argument)
    } catch {
      print("Not a notification id: \(error)")   // "an id is not empty"
    }
    // snippet: end
    #expect(printed == ["Not a notification id: an id is not empty"])
    // snippet: check-id
    try NotificationData.checkID("n1")   // fine
    let empty = Result { () throws(InvalidNotificationID) in try NotificationData.checkID("") }
    // .failure(.empty)
    // snippet: end
    #expect(throws: InvalidNotificationID.empty) { try empty.get() }
  }

  @Test func detailsCarryTypedFields() {
    // snippet: details
    let details = NotificationDetails.contact(.init(name: "Ada", role: "Admin", action: "added"))
    // snippet: end
    let values = featureDocValues {
      // snippet: contact-details
      NotificationDetails.ContactDetails(name: "Ada", role: "Admin", action: "added")
      // snippet: end
      // snippet: alert-details
      NotificationDetails.AlertDetails(severity: "high", location: "Gate 4")
      // snippet: end
      // snippet: ping-details
      NotificationDetails.PingDetails(contactName: "Ada", note: "Call me")
      // snippet: end
    }
    let ada = NotificationDetails.ContactDetails(name: "Ada", role: "Admin", action: "added")
    #expect(details == .contact(ada))
    #expect(values[0] as? NotificationDetails.ContactDetails == ada)
    let alert = values[1] as? NotificationDetails.AlertDetails
    #expect(alert?.severity == "high")
    #expect(alert?.location == "Gate 4")
    let ping = values[2] as? NotificationDetails.PingDetails
    #expect(ping?.contactName == "Ada")
    #expect(ping?.note == "Call me")
  }

  @Test func detailsFieldsAreOptionalButTheName() {
    // snippet: contact-details-init
    let ada = NotificationDetails.ContactDetails(name: "Ada")
    // snippet: end
    #expect(ada.role == nil && ada.action == nil)
    do {
      // snippet: alert-details-init
      let details = NotificationDetails.AlertDetails(severity: "low")
      // snippet: end
      #expect(details.location == nil)
    }
    do {
      // snippet: ping-details-init
      let details = NotificationDetails.PingDetails(note: "Call me")
      // snippet: end
      #expect(details.contactName == nil)
    }
  }

  @Test func aFilterMatchesByType() {
    let feed = FeatureDocSamples.notifications
    let notification = FeatureDocSamples.ping
    // snippet: filter
    let visible = feed.filter(NotificationFilter.type(.alert).matches)
    // snippet: end
    let values = featureDocValues {
      // snippet: filter-matches
      NotificationFilter.type(.ping).matches(notification)
      // snippet: end
    }
    #expect(visible.map(\.id) == ["n2"])
    #expect(values.first as? Bool == true)
    #expect(NotificationFilter.all.matches(notification))
  }

  @Test func prioritiesAreOrdered() {
    let feed = FeatureDocSamples.notifications
    let values = featureDocValues {
      // snippet: priority
      NotificationPriority.high > .regular                 // true
      NotificationPriority(rawValue: "silent")             // .silent
      // snippet: end
    }
    // snippet: priority-max
    let loudest = feed.map(\.priority).max()
    // snippet: end
    #expect(values[0] as? Bool == true)
    #expect(values[1] as? NotificationPriority == .silent)
    #expect(loudest == .high)
  }

  @Test func theTargetSaysWhichScreenToOpen() {
    var opened: [String] = []
    func openContact(_ contactID: String) { opened.append("contact \(contactID)") }
    func openAlert(_ alertID: String) { opened.append("alert \(alertID)") }
    func openPing(_ pingID: String, of contactID: String) {
      opened.append("ping \(pingID) of \(contactID)")
    }
    for notification in FeatureDocSamples.notifications {
      // snippet: target
      switch notification.target {
      case .none: break
      case .contact(let contactID): openContact(contactID)
      case .alert(let alertID): openAlert(alertID)
      case .ping(let pingID, let contactID): openPing(pingID, of: contactID)
      }
      // snippet: end
    }
    #expect(opened == ["ping p1 of c1", "alert a1", "contact c2"])
  }

  @Test func anErrorSaysWhetherRetryingHelps() {
    let error = UserFacingError.notFound
    let values = featureDocValues {
      // snippet: user-facing-error
      UserFacingError.server(status: 503).isRetryable   // true
      UserFacingError.unauthorized.message             // "Your session has expired. Sign in again."
      // snippet: end
      // snippet: message
      Text(error.message)
      // snippet: end
    }
    #expect(values[0] as? Bool == true)
    #expect(values[1] as? String == "Your session has expired. Sign in again.")
    #expect(values[2] as? Text == Text("That notification no longer exists."))
  }

  @Test func retryableFailuresAreQueuedAndOthersRolledBack() {
    var outbox: [String] = []
    var rolledBack: [String] = []
    func rollBack(_ change: String) { rolledBack.append(change) }
    func handle(_ error: UserFacingError, for change: String) {
      // snippet: is-retryable
      if error.isRetryable { outbox.append(change) } else { rollBack(change) }
      // snippet: end
    }
    handle(.network, for: "read n1")
    handle(.server(status: 429), for: "read n2")
    handle(.server(status: 404), for: "read n3")
    handle(.unauthorized, for: "read n4")
    #expect(outbox == ["read n1", "read n2"])
    #expect(rolledBack == ["read n3", "read n4"])
  }

  @Test func iso8601DatesAreReadWithAnyOffsetAndWrittenInUTC() {
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    let values = featureDocValues {
      // snippet: iso8601
      ISO8601.date(from: "2023-11-14T23:13:20+01:00")   // 2023-11-14 22:13:20 UTC
      ISO8601.string(from: date)                       // "2023-11-14T22:13:20.000Z"
      // snippet: end
      // snippet: iso8601-date
      ISO8601.date(from: "2023-11-14T22:13:20.5Z")
      // snippet: end
      // snippet: iso8601-string
      ISO8601.string(from: Date(timeIntervalSince1970: 1_700_000_000.25))
      // snippet: end
    }
    #expect(values[0] as? Date == date)
    #expect(values[1] as? String == "2023-11-14T22:13:20.000Z")
    #expect(values[2] as? Date == Date(timeIntervalSince1970: 1_700_000_000.5))
    #expect(values[3] as? String == "2023-11-14T22:13:20.250Z")
  }
}
