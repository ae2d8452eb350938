import Foundation
import Notifications
import Testing

/// The details' JSON: a `kind` and the case's fields under `value`.
struct NotificationDetailsCodingTests {
  @Test func eachCaseEncodesToItsExactShape() throws {
    #expect(
      try ModelJSON.encode(
        NotificationDetails.contact(.init(name: "Ada", role: "Admin", action: "added")))
        == #"{"kind":"contact","value":{"action":"added","name":"Ada","role":"Admin"}}"#)
    #expect(
      try ModelJSON.encode(NotificationDetails.alert(.init(severity: "high")))
        == #"{"kind":"alert","value":{"severity":"high"}}"#)
    #expect(
      try ModelJSON.encode(NotificationDetails.ping(.init(contactName: "Ada", note: "Hi")))
        == #"{"kind":"ping","value":{"contactName":"Ada","note":"Hi"}}"#)
  }

  @Test func eachCaseRoundTrips() throws {
    let all: [NotificationDetails] = [
      .contact(.init(name: "Ada")), .contact(.init(name: "Ada", role: "Admin", action: "added")),
      .alert(.init()), .alert(.init(severity: "low", location: "Gate 4")),
      .ping(.init()), .ping(.init(contactName: "Ada", note: "Hi")),
    ]
    for details in all {
      #expect(
        try ModelJSON.decode(NotificationDetails.self, try ModelJSON.encode(details)) == details)
    }
  }
}
