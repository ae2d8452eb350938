import Foundation
import Notifications
import Testing

/// `userInfo` dictionaries: walked value by value, with booleans and numbers told apart.
struct PushUserInfoTests {
  @Test func foundationBooleansAreBooleansAndFoundationNumbersAreNumbers() throws {
    // A boolean NSNumber is not an id; a numeric one is.
    #expect(
      PushSample.error(userInfo: ["id": NSNumber(value: true)])
        == .invalidField("id", reason: "it must be a string or a whole number"))
    #expect(try PushSample.parse(userInfo: ["id": NSNumber(value: 1)]).id == "1")
    #expect(try PushSample.parse(userInfo: ["id": "a", "isRead": NSNumber(value: true)]).isRead)
  }

  @Test func swiftBooleansAndNumbersAreToldApart() throws {
    #expect(
      PushSample.error(userInfo: ["id": true])
        == .invalidField("id", reason: "it must be a string or a whole number"))
    #expect(try PushSample.parse(userInfo: ["id": 7]).id == "7")
    #expect(try PushSample.parse(userInfo: ["id": Int64.max]).id == "9223372036854775807")
    #expect(try PushSample.parse(userInfo: ["id": UInt8(3)]).id == "3")
  }

  @Test func foundationStringsArraysDictionariesAndNullsAreRead() throws {
    let userInfo: [AnyHashable: Any] = [
      "id": NSString(string: "n1"),
      "aps": NSDictionary(dictionary: ["alert": NSString(string: "Body")]),
      "list": NSArray(array: [1, "two", NSNull()]),
      "threadId": NSNull(),
    ]
    let notification = try PushSample.parse(userInfo: userInfo)
    #expect(notification.id == "n1")
    #expect(notification.message == "Body")
    #expect(notification.threadID == nil)
  }

  @Test func nilOptionalsAreNull() throws {
    let missing: String? = nil
    let present: String? = "t1"
    let userInfo: [AnyHashable: Any] = [
      "id": "a", "title": missing as Any, "threadId": present as Any,
    ]
    let notification = try PushSample.parse(userInfo: userInfo)
    #expect(notification.title == "System")
    #expect(notification.threadID == "t1")
  }

  @Test func timestampsInUserInfoMayBeDoubles() throws {
    let notification = try PushSample.parse(userInfo: ["id": "a", "timestamp": 1_699_999_000.5])
    #expect(notification.timestamp == Date(timeIntervalSince1970: 1_699_999_000.5))
  }
}
