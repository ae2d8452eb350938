import Foundation
import NotificationFeature
import Testing

struct ModelTests {
  @Test func notificationsRoundTripThroughTheirJSONShape() throws {
    let notification = NotificationData(
      id: "n1", type: .checkIn, title: "T", message: "M",
      timestamp: Date(timeIntervalSince1970: 1_700_000_000.25), isRead: true,
      target: .ping(pingID: "p", contactID: "c"),
      details: .contact(.init(name: "Ada", role: "Admin")), threadID: "t", priority: .high)
    let data = try JSONEncoder().encode(notification)
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    #expect(object?["type"] as? String == "check_in")
    #expect(object?["timestamp"] as? String == "2023-11-14T22:13:20.250Z")
    #expect(object?["threadId"] as? String == "t")
    #expect(try JSONDecoder().decode(NotificationData.self, from: data) == notification)
  }

  @Test func missingOptionalKeysTakeDefaultsAndUnknownTypesRoundTrip() throws {
    let json = #"{"id":"x","type":"poll","title":"T","message":"M","timestamp":"2023-11-14T22:13:20Z"}"#
    let decoded = try JSONDecoder().decode(NotificationData.self, from: Data(json.utf8))
    #expect(decoded.type == .unknown("poll"))
    #expect(decoded.isRead == false)
    #expect(decoded.target == .none)
    #expect(decoded.priority == .regular)
    let again = try JSONDecoder().decode(
      NotificationData.self, from: try JSONEncoder().encode(decoded))
    #expect(again.type == .unknown("poll"))
  }

  @Test func typesCarryTheirSymbolAndColourRole() {
    #expect(NotificationType.alert.symbolName == "exclamationmark.triangle.fill")
    #expect(NotificationType.alert.colorRole == .critical)
    #expect(NotificationType.checkIn.colorRole == .positive)
    #expect(NotificationType.unknown("x").symbolName == "bell")
  }

  @Test func filtersMatchByType() {
    let alert = NotificationData(id: "a", type: .alert, title: "", message: "", timestamp: .now)
    #expect(NotificationFilter.all.matches(alert))
    #expect(NotificationFilter.type(.alert).matches(alert))
    #expect(!NotificationFilter.type(.ping).matches(alert))
  }

  @Test func userFacingErrorsSayWhetherRetryingHelps() {
    #expect(UserFacingError.network.isRetryable)
    #expect(UserFacingError.server(status: 503).isRetryable)
    #expect(UserFacingError.server(status: 429).isRetryable)
    #expect(!UserFacingError.server(status: 400).isRetryable)
    #expect(!UserFacingError.unauthorized.isRetryable)
    #expect(UserFacingError.unauthorized.message == "Your session has expired. Sign in again.")
  }
}
