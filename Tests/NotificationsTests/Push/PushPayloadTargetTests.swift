import Foundation
import Notifications
import Testing

/// The target a push opens: chosen by its type, or given explicitly; never an error.
struct PushPayloadTargetTests {
  func target(_ json: String) throws -> NotificationTarget {
    try PushSample.parse(json).target
  }

  @Test func aPingNeedsAPingAndAContact() throws {
    #expect(
      try target(#"{"id":"a","type":"ping","pingId":"p1","contactId":"c1"}"#)
        == .ping(pingID: "p1", contactID: "c1"))
    #expect(try target(#"{"id":"a","type":"ping","pingId":"p1"}"#) == .none)
    #expect(try target(#"{"id":"a","type":"ping","contactId":"c1"}"#) == .none)
  }

  @Test func anAlertNeedsAnAlert() throws {
    #expect(try target(#"{"id":"a","type":"alert","alertId":"a1"}"#) == .alert(alertID: "a1"))
    #expect(try target(#"{"id":"a","type":"alert","contactId":"c1"}"#) == .none)
  }

  @Test func contactTypesNeedAContact() throws {
    for type in ["role", "added", "removed", "check_in"] {
      #expect(
        try target(#"{"id":"a","type":"\#(type)","contactId":"c1"}"#) == .contact(contactID: "c1"))
      #expect(try target(#"{"id":"a","type":"\#(type)","alertId":"a1"}"#) == .none)
    }
  }

  @Test func systemAndUnknownTypesOpenNothing() throws {
    #expect(try target(#"{"id":"a","type":"system","contactId":"c1","alertId":"a1"}"#) == .none)
    #expect(try target(#"{"id":"a","type":"poll","contactId":"c1"}"#) == .none)
  }

  @Test func targetIDsMayBeNumbersAndAreTrimmed() throws {
    #expect(try target(#"{"id":"a","type":"alert","alertId":17}"#) == .alert(alertID: "17"))
    #expect(
      try target(#"{"id":"a","type":"ping","pingId":" p1 ","contactId":"\tc1"}"#)
        == .ping(pingID: "p1", contactID: "c1"))
  }

  @Test func blankOrUnusableTargetIDsCountAsMissing() throws {
    #expect(try target(#"{"id":"a","type":"alert","alertId":"  "}"#) == .none)
    #expect(try target(#"{"id":"a","type":"alert","alertId":true}"#) == .none)
    #expect(try target(#"{"id":"a","type":"alert","alertId":{"x":1}}"#) == .none)
  }

  @Test func targetIDsMayComeFromData() throws {
    #expect(
      try target(#"{"id":"a","type":"ping","data":{"pingId":"p1","contactId":"c1"}}"#)
        == .ping(pingID: "p1", contactID: "c1"))
  }

  @Test func anExplicitTargetObjectWinsOverTheType() throws {
    #expect(
      try target(#"{"id":"a","type":"system","target":{"kind":"contact","contactId":"c1"}}"#)
        == .contact(contactID: "c1"))
    #expect(
      try target(
        #"{"id":"a","type":"alert","alertId":"a1","#
          + #""target":{"kind":"ping","pingId":"p","contactId":"c"}}"#)
        == .ping(pingID: "p", contactID: "c"))
    #expect(
      try target(#"{"id":"a","type":"alert","alertId":"a1","target":{"kind":"none"}}"#) == .none)
  }

  @Test func anExplicitTargetMissingItsIDsOrOfAnUnknownKindIsNone() throws {
    #expect(try target(#"{"id":"a","target":{"kind":"ping","pingId":"p"}}"#) == .none)
    #expect(try target(#"{"id":"a","target":{"kind":"map","mapId":"m"}}"#) == .none)
    #expect(try target(#"{"id":"a","target":{}}"#) == .none)
  }

  @Test func anExplicitTargetMayBeAJSONStringAsFCMSendsIt() throws {
    #expect(
      try target(#"{"data":{"id":"a","target":"{\"kind\":\"alert\",\"alertId\":\"a9\"}"}}"#)
        == .alert(alertID: "a9"))
    #expect(try target(#"{"data":{"id":"a","target":"{not json"}}"#) == .none)
  }

  @Test func detailsInTheirJSONShapeAreRead() throws {
    let contact = try PushSample.parse(
      #"{"id":"a","details":{"kind":"contact","value":{"name":" Ada ","role":"Admin"}}}"#)
    #expect(contact.details == .contact(.init(name: "Ada", role: "Admin")))
    let alert = try PushSample.parse(
      #"{"id":"a","details":{"kind":"alert","severity":"high","location":"Gate 4"}}"#)
    #expect(alert.details == .alert(.init(severity: "high", location: "Gate 4")))
    let ping = try PushSample.parse(
      #"{"data":{"id":"a","details":"{\"kind\":\"ping\",\"value\":{\"note\":\"Hi\"}}"}}"#)
    #expect(ping.details == .ping(.init(note: "Hi")))
  }

  @Test func unreadableDetailsAreLeftOut() throws {
    #expect(try PushSample.parse(#"{"id":"a","details":{"kind":"contact"}}"#).details == nil)
    #expect(try PushSample.parse(#"{"id":"a","details":{"kind":"poll"}}"#).details == nil)
    #expect(try PushSample.parse(#"{"id":"a","details":[1,2]}"#).details == nil)
    #expect(try PushSample.parse(#"{"id":"a"}"#).details == nil)
  }
}
