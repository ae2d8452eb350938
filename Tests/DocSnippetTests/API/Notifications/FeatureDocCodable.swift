// The snippets of the doc comments of the models' Codable conformances
// (NotificationData+Codable.swift, NotificationDetails+Codable.swift, NotificationFilter+Codable.swift,
// NotificationTarget+Codable.swift, NotificationType+Codable.swift).

import Foundation
import Notifications
import Testing

/// The JSON of `data` as a dictionary, to compare documents regardless of key order.
private func object(_ data: Data) throws -> NSDictionary? {
  try JSONSerialization.jsonObject(with: data) as? NSDictionary
}

private func object(_ text: String) throws -> NSDictionary? {
  try object(Data(text.utf8))
}

struct CodableDocSnippets {
  @Test func aNotificationDecodesWithItsDefaults() throws {
    let data = Data(#"{"id":"n1","timestamp":"2023-11-14T23:13:20+01:00"}"#.utf8)
    // snippet: notification-decode
    let notification = try JSONDecoder().decode(NotificationData.self, from: data)
    // snippet: end
    #expect(
      notification
        == NotificationData(
          id: "n1", type: .system, title: "", message: "",
          timestamp: Date(timeIntervalSince1970: 1_700_000_000)))
  }

  @Test func aNotificationEncodesEveryKey() throws {
    let notification = FeatureDocSamples.ping
    // snippet: notification-encode
    let data = try JSONEncoder().encode(notification)
    // snippet: end
    #expect(
      try object(data)
        == object(
          #"{"id":"n1","type":"ping","title":"Ping","message":"Ada pinged you","#
            + #""timestamp":"2023-11-14T22:13:20.000Z","isRead":false,"#
            + #""target":{"kind":"ping","pingId":"p1","contactId":"c1"},"details":null,"#
            + #""threadId":"ada","priority":"regular","isLocal":false}"#))
    #expect(try JSONDecoder().decode(NotificationData.self, from: data) == notification)
  }

  @Test func detailsHaveAKindAndAValue() throws {
    let values = try featureDocValues {
      // snippet: details-decode
      let json = Data(#"{"kind":"ping","value":{"note":"Hi"}}"#.utf8)
      try JSONDecoder().decode(NotificationDetails.self, from: json)   // .ping(.init(note: "Hi"))
      // snippet: end
      // snippet: details-encode
      try JSONEncoder().encode(NotificationDetails.alert(.init(severity: "high")))
      // {"kind":"alert","value":{"severity":"high"}}
      // snippet: end
    }
    #expect(values.first as? NotificationDetails == .ping(.init(note: "Hi")))
    let encoded = try #require(values.last as? Data)
    #expect(try object(encoded) == object(#"{"kind":"alert","value":{"severity":"high"}}"#))
  }

  @Test func aFilterHasAKind() throws {
    let values = try featureDocValues {
      // snippet: filter-decode
      let json = Data(#"{"kind":"type","type":"alert"}"#.utf8)
      try JSONDecoder().decode(NotificationFilter.self, from: json)   // .type(.alert)
      // snippet: end
      // snippet: filter-encode
      try JSONEncoder().encode(NotificationFilter.type(.checkIn))
      // {"kind":"type","type":"check_in"}
      // snippet: end
    }
    #expect(values.first as? NotificationFilter == .type(.alert))
    let encoded = try #require(values.last as? Data)
    #expect(try object(encoded) == object(#"{"kind":"type","type":"check_in"}"#))
  }

  @Test func aTargetHasAKindAndItsIDs() throws {
    let values = try featureDocValues {
      // snippet: target-decode
      let json = Data(#"{"kind":"alert","alertId":"a1"}"#.utf8)
      try JSONDecoder().decode(NotificationTarget.self, from: json)   // .alert(alertID: "a1")
      // snippet: end
      // snippet: target-encode
      try JSONEncoder().encode(NotificationTarget.contact(contactID: "c1"))
      // {"kind":"contact","contactId":"c1"}
      // snippet: end
    }
    #expect(values.first as? NotificationTarget == .alert(alertID: "a1"))
    let encoded = try #require(values.last as? Data)
    #expect(try object(encoded) == object(#"{"kind":"contact","contactId":"c1"}"#))
  }

  @Test func aTypeIsItsWireString() throws {
    let values = try featureDocValues {
      // snippet: type-decode
      let json = Data(#""poll""#.utf8)
      try JSONDecoder().decode(NotificationType.self, from: json)   // .unknown("poll")
      // snippet: end
      // snippet: type-encode
      try JSONEncoder().encode(NotificationType.checkIn)   // "check_in"
      // snippet: end
    }
    #expect(values.first as? NotificationType == .unknown("poll"))
    let encoded = try #require(values.last as? Data)
    #expect(String(decoding: encoded, as: UTF8.self) == #""check_in""#)
  }
}
